"""A model judge: headless Claude Code (`claude -p`) reads the digest on stdin.

The same evidence the skill hands a model, judged without a human in the loop (for the
SessionEnd hook with `--judge claude`). The CLI runs with no tools, no hooks and no session kept
(the judge's own session must never become a transcript hindsight reads); its system prompt is
replaced by the judge's instructions, and the schema goes as `--json-schema`, which the CLI
enforces through a StructuredOutput tool and returns as `structured_output`. The CLI does its own
retries on overload, so there is one attempt here, within the run's time limit.

Settings: the CLI from $HINDSIGHT_CLAUDE_BIN, else `claude` on PATH; the model from --model,
else $HINDSIGHT_CLAUDE_MODEL, else the CLI's own choice. The account is the CLI's.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import orjson

from hindsight import judges
from hindsight.errors import HindsightError
from hindsight.judges import model

NAME = "claude"
# Set for the judge's own process: its SessionEnd hook must not start another hindsight run.
CHILD_ENV = "HINDSIGHT_JUDGE_CHILD"


def _binary() -> str:
    found = os.environ.get("HINDSIGHT_CLAUDE_BIN") or shutil.which("claude")
    if not found:
        raise HindsightError(
            "--judge claude needs the Claude Code CLI: put 'claude' on PATH or set HINDSIGHT_CLAUDE_BIN"
        )
    return found


class ClaudeCliJudge(model.ModelJudge):
    name = NAME

    def configure(self, options: judges.Options) -> model.Settings:
        return model.Settings(
            model=options.model or os.environ.get("HINDSIGHT_CLAUDE_MODEL") or None,
            base_url=None,  # the CLI's own (ANTHROPIC_BASE_URL in its environment)
            api_key=None,  # the CLI's own account
            max_input_bytes=options.max_input_bytes,
            timeout_s=options.timeout_s,
        )

    def send(self, plan: judges.Plan, seconds_left: float) -> model.Answer:
        argv = [
            _binary(),
            "-p",
            model.PROMPT,
            "--system-prompt",
            plan.system,
            "--output-format",
            "json",
            "--json-schema",
            orjson.dumps(model.wire_schema()).decode(),
            "--tools",
            "",  # judging needs no tool, and a tool is a way out for injected text
            "--no-session-persistence",  # the judge's session must not become a transcript to read
            "--settings",
            '{"disableAllHooks": true}',
        ]
        if self.settings.model:
            argv += ["--model", self.settings.model]
        digest = plan.user.removeprefix(model.PROMPT).lstrip("\n")
        try:
            done = subprocess.run(
                argv,
                input=digest,
                capture_output=True,
                text=True,
                timeout=seconds_left,
                check=False,
                env={**os.environ, CHILD_ENV: "1"},
            )
        except subprocess.TimeoutExpired:
            raise model.Failure(f"no answer within {self.settings.timeout_s:g} s") from None
        except OSError as exc:
            raise HindsightError(f"cannot run the claude judge: {exc.strerror}") from None
        envelope = _envelope(done.stdout)
        if done.returncode != 0 or envelope is None or envelope.get("is_error"):
            status = envelope.get("api_error_status") if envelope else None
            text = (envelope or {}).get("result") or done.stderr or done.stdout
            last = str(text).strip().splitlines()[-1:] or ["no output"]
            what = f"exit {done.returncode}" + (f", HTTP {status}" if status else "")
            raise model.Failure(f"{what}: {model.one_line(last[0])}")
        usage = envelope.get("usage") or {}
        tokens_in = None
        if isinstance(usage, dict) and isinstance(usage.get("input_tokens"), int):
            tokens_in = sum(
                int(usage.get(k) or 0)
                for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
            )
        tokens_out = usage.get("output_tokens") if isinstance(usage, dict) else None
        structured = envelope.get("structured_output")
        payload = structured if isinstance(structured, dict) else envelope.get("result")
        if not isinstance(payload, (dict, str)):
            raise model.Failure("the CLI's result has no answer")
        return model.Answer(payload, tokens_in, tokens_out if isinstance(tokens_out, int) else None)


def _envelope(stdout: str) -> dict[str, object] | None:
    try:
        doc = orjson.loads(stdout)
    except orjson.JSONDecodeError:
        return None
    return doc if isinstance(doc, dict) else None
