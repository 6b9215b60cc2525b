"""The art stage: takes designs and templates and hands on drawings: SVG rendered in Jinja2's
sandbox, boards and sheets' text, compiled once for the PDF, with the fonts, images and shapes."""
