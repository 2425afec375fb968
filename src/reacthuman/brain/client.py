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
import math
import os
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from reacthuman.brain.extract import ExtractionError, extract_json
from reacthuman.brain.plan import PlanError, ReactionPlan, parse_plan
from reacthuman.brain.prompt import PROMPT_VERSION, REASK, build_messages
from reacthuman.observation import Observation

OPENROUTER = "https://openrouter.ai/api/v1"
KEY_VARIABLES = ("REACTHUMAN_API_KEY", "OPENROUTER_API_KEY", "OPENAI_API_KEY")
# A plan is a few kB (at most 16 keyframes) and max_tokens bounds an honest reply to about
# 4 characters a token: a longer reply is no plan. It is an R1 without being parsed, and
# only its first MAX_REPLY_CHARS are kept (with a note).
MAX_REPLY_CHARS = 200_000
# Seconds for one decision, every request, read, retry and re-ask together: a server that
# drips one byte a second never times a read out, so only this ends its decision.
DEFAULT_DEADLINE = 600.0


class ReplyError(ValueError):
    """A reply's JSON object is not an answer to the question asked (asked again, with this)."""


Accept = Callable[[dict[str, Any]], None]  # takes a reply's JSON object, or raises ReplyError


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


def reply_text(content: Any) -> str:
    """A message's content as text: a string, nothing, or a list of parts (the OpenAI
    format's content parts, whose text parts are joined)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            text = part.get("text") if isinstance(part, dict) else getattr(part, "text", None)
            if isinstance(text, str):
                texts.append(text)
        return "".join(texts)
    return str(content)


def clean_text(text: str) -> str:
    """``text`` with lone surrogates (a JSON ``\\ud800`` decodes to one, and nothing can
    write it as UTF-8) replaced by U+FFFD; proper pairs become the character they encode."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def token_count(value: Any) -> int:
    """A token count as an endpoint reports it: a non-negative integer, else 0 (1.5, NaN,
    "12" or -3 are not counts, and a stored one must read back)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if not math.isfinite(value) or value < 0 or value != int(value):
        return 0
    return int(value)


def kept(reply: str) -> str:
    """What is recorded of a reply: all of it, or its first ``MAX_REPLY_CHARS``, noted."""
    if len(reply) <= MAX_REPLY_CHARS:
        return reply
    return reply[:MAX_REPLY_CHARS] + f"\n[reply truncated: {len(reply)} characters in all]"


def key_pattern(key: str) -> re.Pattern[str]:
    """The key as it may appear in a reply: each character itself or JSON-escaped
    (``\\u0073``, ``\\/``), so an endpoint cannot slip it past the scrubber escaped."""
    parts = []
    for ch in key:
        options = [re.escape(ch), f"\\\\u{ord(ch):04x}", f"\\\\u{ord(ch):04X}"]
        if ch == "/":
            options.append(r"\\/")
        parts.append("(?:" + "|".join(options) + ")")
    return re.compile("".join(parts))


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
        deadline: float = DEFAULT_DEADLINE,
    ) -> None:
        from openai import AsyncOpenAI

        self.model = model
        self.base_url = base_url.rstrip("/")
        self._key = api_key if api_key is not None else api_key_from_env()
        self._key_pattern = key_pattern(self._key) if self._key else None
        self.deadline = deadline
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
        """``text`` with the API key, plain or JSON-escaped, replaced by ``[api key]``."""
        if self._key_pattern is None:
            return text
        return self._key_pattern.sub("[api key]", text)

    def recordable(self, value: Any) -> Any:
        """A decoded JSON value whose every string can be recorded and published (a plan's
        ``intent`` is): the key scrubbed, lone surrogates (``"\\ud800"`` decodes to one)
        replaced."""
        if isinstance(value, str):
            return self.scrub(clean_text(value))
        if isinstance(value, list):
            return [self.recordable(v) for v in value]
        if isinstance(value, dict):
            return {self.recordable(k): self.recordable(v) for k, v in value.items()}
        return value

    def _wait(self, state: RetryCallState) -> float:
        """Seconds before the next try: Retry-After (capped) or jittered exponential backoff.
        tenacity asks before it checks its stop, so the last try returns 0 and draws no
        jitter: the seeded sequence stays the same as when only waits drew from it."""
        attempt = state.attempt_number - 1
        if attempt >= self.max_retries:
            return 0.0
        retry_after = _retry_after(state.outcome.exception()) if state.outcome else None
        if retry_after is not None:
            return min(retry_after, self.max_backoff)
        base = min(self.backoff * 2**attempt, self.max_backoff)
        return base * self._jitter.uniform(0.5, 1.5)

    async def _request(self, messages: list[dict[str, Any]], decision: Decision) -> Any:
        decision.requests += 1
        if self._limiter is not None:
            await self._limiter.wait()
        return await self._client.chat.completions.create(
            model=self.model,
            messages=messages,  # type: ignore[arg-type]
            temperature=self.temperature,
            max_tokens=self.max_tokens,
        )

    async def _complete(self, messages: list[dict[str, Any]], decision: Decision) -> Any:
        """One chat completion with retries; raises RuntimeError (scrubbed) when they run out."""
        import openai

        retrying = AsyncRetrying(
            retry=retry_if_exception(_transient),
            stop=stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            reraise=True,
        )
        try:
            return await retrying(self._request, messages, decision)
        except (openai.APIStatusError, openai.APIConnectionError) as exc:
            last = _failure(exc)
        raise RuntimeError(self.scrub(f"no answer after {decision.requests} request(s): {last}"))

    async def decide(self, observation: Observation, folder: Path) -> Decision:
        decision = Decision(scene_id=observation.scene_id, brain=self.model, endpoint=self.base_url)

        def accept(answer: dict[str, Any]) -> None:
            decision.plan = parse_plan(answer)

        messages = await asyncio.to_thread(build_messages, observation, folder)  # reads frames
        return await self.ask(decision, messages, accept)

    async def ask(
        self,
        record: Decision,
        messages: list[dict[str, Any]],
        accept: Accept,
        reask: str = REASK,
    ) -> Decision:
        """Ask ``messages`` until ``accept`` takes the reply's JSON object (it raises
        ``ReplyError`` for one it cannot use, which is asked again with the reason in
        ``reask``), with this client's retries, re-asks and deadline; ``record`` (a plan's
        Decision, or another question's record of the same form) gets the replies, requests,
        usage and, when no reply is usable, the reason in ``r1_reason``."""
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.deadline):
                await self._ask(messages, record, accept, reask)
        except TimeoutError:
            record.plan = None
            record.r1_reason = f"no usable answer within the {self.deadline:g} s deadline"
            record.api_failure = True
        except RuntimeError as exc:
            record.r1_reason = str(exc)
            record.api_failure = True
        record.latency_s = time.perf_counter() - started
        return record

    async def _ask(
        self, messages: list[dict[str, Any]], decision: Decision, accept: Accept, reask: str
    ) -> None:
        """Ask, and re-ask while the reply is unusable; fills ``decision`` as it goes."""
        for ask in range(self.max_reasks + 1):
            response = await self._complete(messages, decision)
            usage = getattr(response, "usage", None)
            if usage is not None:
                decision.usage.prompt_tokens += token_count(getattr(usage, "prompt_tokens", 0))
                decision.usage.completion_tokens += token_count(
                    getattr(usage, "completion_tokens", 0)
                )
                cost = (getattr(usage, "model_extra", None) or {}).get("cost")
                if isinstance(cost, int | float) and math.isfinite(cost):
                    decision.usage.cost = (decision.usage.cost or 0.0) + float(cost)
            choices = getattr(response, "choices", None) or []
            message = getattr(choices[0], "message", None) if choices else None
            reply = clean_text(reply_text(getattr(message, "content", None)))
            decision.replies.append(kept(self.scrub(reply)))
            try:
                if len(reply) > MAX_REPLY_CHARS:
                    raise ExtractionError(
                        f"the reply is {len(reply)} characters long (a plan is a few thousand)"
                    )
                accept(self.recordable(extract_json(reply)))
                decision.r1_reason = None
                return
            except (ExtractionError, PlanError, ReplyError) as exc:
                decision.r1_reason = self.scrub(f"unusable reply: {exc}")
                if ask < self.max_reasks:
                    decision.reasks += 1
                    messages = [
                        *messages,
                        {"role": "assistant", "content": kept(reply)},
                        {"role": "user", "content": reask.format(reason=exc)},
                    ]


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


def _transient(exc: BaseException) -> bool:
    """Worth another try: 429, 5xx, a timeout or a dropped connection (APITimeoutError is
    an APIConnectionError); another 4xx does not heal by retrying."""
    import openai

    if isinstance(exc, openai.APIStatusError):
        return isinstance(exc, openai.RateLimitError) or exc.status_code >= 500
    return isinstance(exc, openai.APIConnectionError)


def _failure(exc: Any) -> str:
    """What a request that failed with a status or connection error is recorded as."""
    import openai

    if isinstance(exc, openai.RateLimitError):
        return f"HTTP 429 rate limited: {exc.message}"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}: {exc.message}"
    if isinstance(exc, openai.APITimeoutError):
        return "the request timed out"
    return f"connection failed: {exc.message}"


def _retry_after(exc: Any) -> float | None:
    response = getattr(exc, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
