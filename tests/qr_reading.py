"""What the table cards' QR codes encode: each card's inline SVG is segno's code for that card's own address
(the `qr_svg` filter's settings), so a card can't carry another table's address."""

import re

import segno


def assert_each_card_encodes_its_address(html: str, urls: list[str]):
    assert len(re.findall(r'<span class="qr" role="img"', html)) == len(urls)
    for url in urls:
        label = f'aria-label="{url}"'
        assert label in html, url
        svg = html.split(label, 1)[1].split("</svg>", 1)[0]
        expected = segno.make(url, error="m", micro=False).svg_inline(scale=4, border=2, omitsize=True)
        assert expected.split("<path", 1)[1].split("/>", 1)[0] in svg, url
