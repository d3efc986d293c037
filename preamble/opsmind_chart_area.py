"""Area chart data (renderers/area.ts): prepared as a line, with the area's own caps."""
from opsmind_chart_line import prepare_series


def prepare(data, params):
    """Area chart data: the series a stacked area draws."""
    return prepare_series(data, params, "area")
