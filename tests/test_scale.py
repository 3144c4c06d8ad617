"""bench/scale.py: the gunicorn sizes it is asked to run (BENCHMARKS.md, "Scale-out")."""

import pytest

from bench import scale


def test_a_size_is_workers_by_threads():
    assert scale.gunicorn_size("2x1") == (2, 1)
    assert scale.gunicorn_size("4X32") == (4, 32)


@pytest.mark.parametrize("text", ["2", "2x", "x1", "2x0", "0x1", "two x one", "2x1x3", ""])
def test_a_size_that_is_not_two_counts_of_at_least_one_is_refused(text):
    with pytest.raises(Exception, match="WORKERSxTHREADS"):
        scale.gunicorn_size(text)


def test_the_command_line_takes_sizes_and_refuses_a_bad_one(capsys):
    with pytest.raises(SystemExit) as exit_:
        scale.main(["--part", "web", "--web", "2x1", "3y1"])
    assert exit_.value.code == 2
    assert "'3y1': give WORKERSxTHREADS, such as 2x1" in capsys.readouterr().err
