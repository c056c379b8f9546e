"""The Shoal benchmark runner (bench/run).  See bench/README.md."""
