"""The red7 command (red7.cli), and the scripts of benchmarks/ and examples/ run as a user
runs them."""
