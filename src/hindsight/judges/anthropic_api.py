"""A model judge over the Anthropic Messages API, through the official SDK (the 'anthropic' extra).

Settings: the model from --model, else $HINDSIGHT_ANTHROPIC_MODEL, else $ANTHROPIC_MODEL, else
DEFAULT_MODEL; the key from $ANTHROPIC_API_KEY; the server from --base-url, else
$ANTHROPIC_BASE_URL. The lessons schema goes as structured output (output_config.format), so a
model that honours it cannot answer anything else; the answer is validated all the same.
"""

from __future__ import annotations

import os

from hindsight import judges
from hindsight.errors import HindsightError
from hindsight.judges import model

NAME = "anthropic"
DEFAULT_MODEL = "claude-sonnet-4-5"


class AnthropicJudge(model.ModelJudge):
    name = NAME

    def configure(self, options: judges.Options) -> model.Settings:
        env = os.environ
        return model.Settings(
            model=options.model
            or env.get("HINDSIGHT_ANTHROPIC_MODEL")
            or env.get("ANTHROPIC_MODEL")
            or DEFAULT_MODEL,
            base_url=options.base_url or env.get("ANTHROPIC_BASE_URL") or None,
            api_key=env.get("ANTHROPIC_API_KEY") or None,
            max_input_bytes=options.max_input_bytes,
            timeout_s=options.timeout_s,
        )

    def send(self, plan: judges.Plan, seconds_left: float) -> model.Answer:
        sdk = model.import_sdk(NAME)
        if not self.settings.api_key:
            raise HindsightError("--judge anthropic needs ANTHROPIC_API_KEY in the environment")
        # Retries are ours (model.ModelJudge): bounded by the run's time limit, not per request.
        client = sdk.Anthropic(
            api_key=self.settings.api_key,
            base_url=self.settings.base_url,
            timeout=seconds_left,
            max_retries=0,
        )
        message = model.sdk_call(
            sdk,
            lambda: client.messages.create(
                model=self.settings.model,
                max_tokens=model.MAX_ANSWER_TOKENS,
                system=plan.system,
                messages=[{"role": "user", "content": plan.user}],
                # As extra_body: the wire format is stable, SDKs before 2.x lack the parameter.
                extra_body={
                    "output_config": {
                        "format": {"type": "json_schema", "schema": model.wire_schema()}
                    }
                },
            ),
            self.settings.base_url or "the Anthropic API",
            self.settings.timeout_s,
        )
        if message.stop_reason == "max_tokens":
            raise model.Failure(f"the answer was cut off at {model.MAX_ANSWER_TOKENS} tokens")
        if message.stop_reason == "refusal":
            raise model.Failure("the model refused to answer")
        text = "".join(getattr(b, "text", "") for b in message.content if b.type == "text")
        usage = message.usage
        return model.Answer(text, usage.input_tokens, usage.output_tokens)
