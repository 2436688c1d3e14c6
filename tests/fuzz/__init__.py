"""The hypothesis fuzz suite (issue #7); helpers in fuzz_support."""
