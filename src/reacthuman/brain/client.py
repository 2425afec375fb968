"""A brain behind any OpenAI-compatible endpoint (OpenRouter as in the paper, vLLM, Ollama,
LM Studio), built on the ``openai`` SDK.

Every call ends in a recorded Decision, never an exception: transient failures (429 with or
without Retry-After, 5xx, timeouts, dropped connections) are retried with exponential backoff
and jitter, a reply that is not a usable plan is re-asked a bounded number of times, and
what still fails is an R1 decision with its reason. The API key comes from an environment
variable and is scrubbed from everything recorded.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from reacthuman.brain.extract import ExtractionError, extract_json
from reacthuman.brain.plan import PlanError, ReactionPlan, parse_plan
from reacthuman.brain.prompt import PROMPT_VERSION, REASK, build_messages
from reacthuman.observation import Observation

OPENROUTER = "https://openrouter.ai/api/v1"
KEY_VARIABLES = ("REACTHUMAN_API_KEY", "OPENROUTER_API_KEY", "OPENAI_API_KEY")


class Usage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None  # as the endpoint reports it (OpenRouter: USD)


class Decision(BaseModel):
    """One brain's answer to one scene: a plan, or an R1 record saying why there is none."""

    model_config = ConfigDict(extra="forbid")

    scene_id: str
    brain: str
    endpoint: str | None = None
    prompt_version: str = PROMPT_VERSION
    plan: ReactionPlan | None = None
    r1_reason: str | None = None  # set exactly when plan is None
    replies: list[str] = Field(default_factory=list)  # raw model text, in order
    requests: int = 0  # HTTP requests made, retries included
    reasks: int = 0
    latency_s: float = 0.0
    usage: Usage = Field(default_factory=Usage)
    api_failure: bool = False  # the endpoint never answered: worth asking again next run


def api_key_from_env(variable: str | None = None) -> str | None:
    names = (variable,) if variable else KEY_VARIABLES
    for name in names:
        if os.environ.get(name):
            return os.environ[name]
    return None


class ModelClient:
    """Asks one model; ``decide`` is safe to run many at once (asyncio)."""

    def __init__(
        self,
        model: str,
        base_url: str = OPENROUTER,
        api_key: str | None = None,
        *,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        timeout: float = 120.0,
        max_retries: int = 5,
        max_reasks: int = 2,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        seed: int = 0,
        rate_limit: float | None = None,
    ) -> None:
        from openai import AsyncOpenAI

        self.model = model
        self.base_url = base_url.rstrip("/")
        self._key = api_key if api_key is not None else api_key_from_env()
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.max_retries = max_retries
        self.max_reasks = max_reasks
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._jitter = random.Random(seed)
        self._limiter = RateLimiter(rate_limit) if rate_limit else None
        # The SDK's own retries are off: ours are bounded, jittered and counted.
        self._client = AsyncOpenAI(
            api_key=self._key or "no-key", base_url=self.base_url, timeout=timeout, max_retries=0
        )

    def decoding(self) -> dict[str, Any]:
        """Decoding parameters: part of the response-cache key."""
        return {"temperature": self.temperature, "max_tokens": self.max_tokens}

    def scrub(self, text: str) -> str:
        return text.replace(self._key, "[api key]") if self._key else text

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_backoff)
        base = min(self.backoff * 2**attempt, self.max_backoff)
        return base * self._jitter.uniform(0.5, 1.5)

    async def _complete(self, messages: list[dict[str, Any]], decision: Decision) -> Any:
        """One chat completion with retries; raises RuntimeError (scrubbed) when they run out."""
        import openai

        last = ""
        for attempt in range(self.max_retries + 1):
            decision.requests += 1
            if self._limiter is not None:
                await self._limiter.wait()
            try:
                return await self._client.chat.completions.create(
                    model=self.model,
                    messages=messages,  # type: ignore[arg-type]
                    temperature=self.temperature,
                    max_tokens=self.max_tokens,
                )
            except openai.RateLimitError as exc:
                last = f"HTTP 429 rate limited: {exc.message}"
                await asyncio.sleep(self._delay(attempt, _retry_after(exc)))
            except openai.APIStatusError as exc:
                last = f"HTTP {exc.status_code}: {exc.message}"
                if exc.status_code < 500:
                    break  # a client error does not heal by retrying
                await asyncio.sleep(self._delay(attempt, _retry_after(exc)))
            except openai.APITimeoutError:
                last = "the request timed out"
                await asyncio.sleep(self._delay(attempt, None))
            except openai.APIConnectionError as exc:
                last = f"connection failed: {exc.message}"
                await asyncio.sleep(self._delay(attempt, None))
        raise RuntimeError(self.scrub(f"no answer after {decision.requests} request(s): {last}"))

    async def decide(self, observation: Observation, folder: Path) -> Decision:
        decision = Decision(scene_id=observation.scene_id, brain=self.model, endpoint=self.base_url)
        started = time.perf_counter()
        messages = build_messages(observation, folder)
        try:
            for ask in range(self.max_reasks + 1):
                response = await self._complete(messages, decision)
                usage = getattr(response, "usage", None)
                if usage is not None:
                    decision.usage.prompt_tokens += usage.prompt_tokens or 0
                    decision.usage.completion_tokens += usage.completion_tokens or 0
                    cost = (usage.model_extra or {}).get("cost")
                    if isinstance(cost, int | float):
                        decision.usage.cost = (decision.usage.cost or 0.0) + float(cost)
                choice = response.choices[0] if response.choices else None
                reply = (choice.message.content if choice and choice.message else None) or ""
                decision.replies.append(self.scrub(reply))
                try:
                    decision.plan = parse_plan(extract_json(reply))
                    decision.r1_reason = None
                    break
                except (ExtractionError, PlanError) as exc:
                    decision.r1_reason = self.scrub(f"unusable reply: {exc}")
                    if ask < self.max_reasks:
                        decision.reasks += 1
                        messages = [
                            *messages,
                            {"role": "assistant", "content": reply},
                            {"role": "user", "content": REASK.format(reason=exc)},
                        ]
        except RuntimeError as exc:
            decision.r1_reason = str(exc)
            decision.api_failure = True
        decision.latency_s = time.perf_counter() - started
        return decision


class RateLimiter:
    """At most ``rate`` requests per second to one endpoint, however many are in flight."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        async with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)


def _retry_after(exc: Any) -> float | None:
    response = getattr(exc, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
