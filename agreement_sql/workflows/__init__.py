"""The seed workflows: judge agreement (Weval), rater diagnostics, cross-agent consistency
(WFGY), the evaluation sheet and its calibration sample. Each module is imported by the
package's __init__ directly."""
