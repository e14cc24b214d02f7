"""The offline grader: encoding, features, alignment, anchors, fitted calibration, criteria from a reference."""
