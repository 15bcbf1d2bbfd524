"""Text views with offset maps, normalisation, and sentence segmentation."""
