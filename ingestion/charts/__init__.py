"""Server-rendered charts: pure geometry (:mod:`svg`) fed by cheap Postgres aggregates.

No chart library: the templates draw the geometry as inline SVG, styled by classes in
``static/css/charts.css`` (no inline styles, so the strict CSP holds).
"""
