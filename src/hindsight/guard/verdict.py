"""The decision a candidate lesson gets, shared by the guard (which makes it) and the ledger
(which records it as the lesson's state)."""

from __future__ import annotations

from typing import NamedTuple

ADMIT = "admit"  # into memory by itself
WAIT = "wait"  # the review inbox: only the person accepts
REPORT = "report"  # the report only (weak evidence, or not a lesson for every session)
QUARANTINE = "quarantine"  # text that tries to instruct: reason, source and hash only
VERDICTS = (ADMIT, WAIT, REPORT, QUARANTINE)


class Decision(NamedTuple):
    verdict: str  # one of VERDICTS
    reason: str = ""  # plain words for the person: why it waits, why report only
    capability: str = ""  # for WAIT: the capability an action opens (capabilities.NAMES)


def admit() -> Decision:
    return Decision(ADMIT)


def wait(reason: str, capability: str = "") -> Decision:
    return Decision(WAIT, reason, capability)


def report(reason: str) -> Decision:
    return Decision(REPORT, reason)


def quarantine(reason: str) -> Decision:
    return Decision(QUARANTINE, reason)
