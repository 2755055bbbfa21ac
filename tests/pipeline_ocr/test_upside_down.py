from PIL import Image

from .helpers import LEGAL_LINES, as_page, engine, render_lines


def test_an_upside_down_page_is_read_the_right_way_up() -> None:
    upside_down = render_lines(LEGAL_LINES).transpose(Image.Transpose.ROTATE_180)

    page = engine().recognize(as_page(upside_down))

    assert [line.text for line in page.lines] == list(LEGAL_LINES)
