"""A model judge over any OpenAI-compatible Chat Completions server (OpenAI, Ollama, llama.cpp,
vLLM, LM Studio...), through the official SDK (the 'openai' extra).

Settings: the server from --base-url, else $OPENAI_BASE_URL (else OpenAI's own); the model from
--model, else $HINDSIGHT_OPENAI_MODEL, else $OPENAI_MODEL (there is no sensible default across
servers); the key from $OPENAI_API_KEY, which a local server may not need. The schema is asked
for as JSON-schema structured output; a server that refuses that request (400/422) is asked
again once with the schema in the instructions only, and the run keeps to plain JSON after that.
"""

from __future__ import annotations

import os
from typing import Any

from hindsight import judges
from hindsight.errors import HindsightError
from hindsight.judges import model

NAME = "openai"
NO_KEY = "unused"  # local servers ignore the key, but the SDK refuses to start without one


class OpenAIJudge(model.ModelJudge):
    name = NAME

    def configure(self, options: judges.Options) -> model.Settings:
        env = os.environ
        chosen = options.model or env.get("HINDSIGHT_OPENAI_MODEL") or env.get("OPENAI_MODEL")
        if not chosen:
            raise HindsightError(
                "--judge openai needs a model: --model NAME or HINDSIGHT_OPENAI_MODEL "
                "(e.g. gpt-4.1-mini, or the name your local server serves)"
            )
        self.structured = env.get("HINDSIGHT_OPENAI_STRUCTURED", "1") != "0"
        return model.Settings(
            model=chosen,
            base_url=options.base_url or env.get("OPENAI_BASE_URL") or None,
            api_key=env.get("OPENAI_API_KEY") or None,
            max_input_bytes=options.max_input_bytes,
            timeout_s=options.timeout_s,
        )

    def send(self, plan: judges.Plan, seconds_left: float) -> model.Answer:
        sdk = model.import_sdk(NAME)
        key = self.settings.api_key
        if not key and not self.settings.base_url:
            raise HindsightError(
                "--judge openai needs OPENAI_API_KEY, or --base-url for a local server"
            )
        client = sdk.OpenAI(
            api_key=key or NO_KEY,
            base_url=self.settings.base_url,
            timeout=seconds_left,
            max_retries=0,  # retries are ours, bounded by the run's time limit
        )
        request: dict[str, Any] = {
            "model": self.settings.model,
            "max_tokens": model.MAX_ANSWER_TOKENS,
            "messages": [
                {"role": "system", "content": plan.system},
                {"role": "user", "content": plan.user},
            ],
        }
        schema = {
            "type": "json_schema",
            "json_schema": {
                "name": "hindsight_lessons",
                "schema": model.wire_schema(),
                "strict": True,
            },
        }

        def create() -> Any:
            if self.structured:
                try:
                    return client.chat.completions.create(**request, response_format=schema)
                except (sdk.BadRequestError, sdk.UnprocessableEntityError):
                    self.structured = False  # this server takes no schema: plain JSON it is
            return client.chat.completions.create(**request)

        where = self.settings.base_url or "the OpenAI API"
        done = model.sdk_call(sdk, create, where, self.settings.timeout_s)
        if not done.choices:
            raise model.Failure("the answer has no choices")
        choice = done.choices[0]
        if choice.finish_reason == "length":
            raise model.Failure(f"the answer was cut off at {model.MAX_ANSWER_TOKENS} tokens")
        if choice.message.refusal:
            raise model.Failure(f"the model refused: {model.one_line(choice.message.refusal)}")
        usage = done.usage
        return model.Answer(
            choice.message.content or "",
            usage.prompt_tokens if usage else None,
            usage.completion_tokens if usage else None,
        )
