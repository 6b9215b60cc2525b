"""The output stage: takes a laid-out ``Pack`` and hands on files: the PDF with its inventory
page, the manifest, shop exports, previews and the calibration sheet, each written atomically."""
