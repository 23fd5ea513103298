"""The harvest curve as an SVG figure (frontier.harvest_chart, pure)."""
from frontier.harvest_chart import MAX_MARKS, Series, harvest_chart, nice_ticks, step_points


def test_ticks_are_round_steps_from_zero_past_the_maximum():
    assert nice_ticks(150) == [0, 50, 100, 150]
    assert nice_ticks(7, count=4) == [0, 2, 4, 6, 8]
    assert nice_ticks(0) == [0, 1]
    assert nice_ticks(1234) == [0, 500, 1000, 1500]


def test_a_count_stays_flat_until_the_next_find():
    assert step_points(((0, 0), (12, 1), (40, 2), (60, 2))) == [(0, 0), (12, 0), (12, 1), (40, 1), (40, 2), (60, 2)]


def test_points_are_drawn_inside_the_plot_with_the_data_kept_beside_them():
    chart = harvest_chart([Series("#1 OBFC", ((0, 0), (12, 1), (40, 2), (150, 2))),
                           Series("#2 COBFC", ((0, 0), (8, 1), (20, 2), (30, 3), (150, 3)))], width=640, height=320)
    obfc, cobfc = chart.series
    assert obfc.data == "0,0 12,1 40,2 150,2" and (obfc.found, obfc.pages) == (2, 150)
    assert obfc.color != cobfc.color
    pixels = [tuple(map(float, p.split(","))) for p in cobfc.pixels.split()]
    assert pixels[0] == (chart.left, chart.bottom), "the curve starts at the origin"
    assert all(chart.left <= x <= chart.right and chart.top <= y <= chart.bottom for x, y in pixels)
    assert pixels[-1][0] == chart.right, "150 pages is the end of the x axis"
    assert [t.label for t in chart.y_ticks][-1] >= 3
    # one dot per bilingual site found, with its numbers in the tooltip
    assert [m.title for m in obfc.marks] == ["#1 OBFC: bilingual site 1 found after 12 pages",
                                             "#1 OBFC: bilingual site 2 found after 40 pages"]


def test_a_crawl_with_many_finds_is_drawn_as_a_line_without_dots():
    points = tuple((i, i) for i in range(MAX_MARKS + 2))
    (drawn,) = harvest_chart([Series("big", points)]).series
    assert drawn.marks == [] and drawn.found == MAX_MARKS + 1


def test_no_series_gives_an_empty_chart():
    assert harvest_chart([]).empty and harvest_chart([Series("none", ())]).empty
