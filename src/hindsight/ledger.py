"""The ledger: every lesson's identity and life, in ``hindsight/ledger.sqlite``.

One row per lesson, keyed by its normalized title (the same key memory's dedup uses), with a
short stable id, the text hindsight wrote, the text last seen in the block (someone may have
edited it), who made it, its evidence keys, its trigger signature and the names it rests on, and
its state; a history of every state it had. MEMORY.md carries no ids: the ledger recognises its
entries by key and by its own record of their text.

States (what ``memory list`` shows):
  memory     in the block
  waiting    in the review inbox: only the person accepts (``hindsight review``)
  report     in the report only
  archived   pruned to the archive
  removed    taken out by the person; may come back on new evidence from a later session
  forgotten  out for good, whatever later sessions show (also: deleted from the block by hand)
  stale      in the block, but a name it rests on is gone from the repository: pruned first

Every change goes through the run's transaction (txn.py) as ops that are safe to apply twice.
"""

from __future__ import annotations

MEMORY = "memory"
WAITING = "waiting"
REPORT = "report"
ARCHIVED = "archived"
REMOVED = "removed"
FORGOTTEN = "forgotten"
STALE = "stale"
STATES = (MEMORY, WAITING, REPORT, ARCHIVED, REMOVED, FORGOTTEN, STALE)
IN_BLOCK = frozenset({MEMORY, STALE})

# Who made a lesson. The person's own (user, promoted, accepted, hand) are pruned last and never
# pushed out by a run's new lessons.
RULES = "rules"  # the built-in judge
MODEL = "model"  # a model judge (skill, claude -p, an API)
USER = "user"  # `hindsight memory add`
PROMOTED = "promoted"  # `hindsight memory promote`
ACCEPTED = "accepted"  # accepted in `hindsight review`
HAND = "hand"  # a line found in the block that hindsight never wrote
MIGRATED = "migrated"  # an entry of a memory folder older than the ledger
PERSONS = frozenset({USER, PROMOTED, ACCEPTED, HAND})
