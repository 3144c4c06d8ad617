"""Draw the installable app's PNG icons (static/icons/icon-192.png, icon-512.png) with the
standard library alone: the favicon's design (a gold coin with a ring on dark blue),
anti-aliased by 4x4 supersampling. Run again after changing the design:
``python tools/make_app_icons.py``. The SVG (static/icons/icon.svg) is the same drawing.
"""

import struct
import zlib
from pathlib import Path

BACKGROUND = (0x1D, 0x29, 0x39)
GOLD = (0xE0, 0xA5, 0x26)
OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
SAMPLES = 4


def colour_at(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y) in the 32-unit drawing of the favicon (full-bleed square:
    a maskable-safe icon, the coin well inside the middle 80%)."""
    distance = ((x - 16) ** 2 + (y - 16) ** 2) ** 0.5
    if distance <= 9:
        return BACKGROUND if 4.75 <= distance <= 6.25 else GOLD
    return BACKGROUND


def png(size: int) -> bytes:
    rows = []
    scale = 32 / size
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            total = [0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) * scale
                    y = (py + (sy + 0.5) / SAMPLES) * scale
                    for i, channel in enumerate(colour_at(x, y)):
                        total[i] += channel
            row.extend(round(value / SAMPLES**2) for value in total)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (OUT / f"icon-{size}.png").write_bytes(png(size))
