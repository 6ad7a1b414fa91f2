"""The guard: what may be written, and where a lesson goes.

``decide.decide`` is the one decision point for a candidate memory lesson (by consequence: what
the next session would do on reading it); ``capabilities`` is the policy as data, ``repository``
what the repository already defines, ``actions`` what a lesson's text would make an agent do.
"""
