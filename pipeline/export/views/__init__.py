"""HTML views of processed records: tagged passages (displaCy), the report with plots, ritual flow.

Every page is one self-contained file: styles inline, plots as inline SVG, no script, no link out.
"""

from pipeline.export.views.flow import flow_html, flow_rows
from pipeline.export.views.passages import passages_html
from pipeline.export.views.report import report_html

__all__ = ["flow_html", "flow_rows", "passages_html", "report_html"]
