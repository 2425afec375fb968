"""A brain behind any OpenAI-compatible endpoint (OpenRouter as in the paper, vLLM, Ollama,
LM Studio), built on the ``openai`` SDK.

Every call ends in a recorded Decision, never an exception (the failure contract that
``decide``, ``bench``, ``scenes author``, ``billiards bench`` and ``probes decide`` share):
transient failures (429 with or without Retry-After, 5xx, timeouts, dropped connections, a
200 whose body is no chat completion) are retried with exponential backoff and jitter, a
reply that is not a usable plan is re-asked a bounded number of times, and what still fails
is an R1 decision with its reason, within the decision's deadline. The API key comes from an
environment variable and is scrubbed from everything recorded.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import math
import os
import random
import re
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from reacthuman.brain.extract import ExtractionError, extract_json, loads, too_long
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
MAX_COUNT = 2**53  # a token count or cost past this is no count (and a float cannot hold it)


class ReplyError(ValueError):
    """A reply's JSON object is not an answer to the question asked (asked again, with this)."""


class MalformedResponse(Exception):
    """A 200 whose body is no chat completion (not JSON, empty, a list, an error object, a
    number past Python's 4,300 digits): the endpoint's failure, retried like a 5xx and then
    recorded as one, never parsed as the model's answer."""


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
    "12", -3 or 10**400 are not counts, and a stored one must read back)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return 0
    return int(value) if 0 <= value <= MAX_COUNT else 0  # no float of a 400-digit int


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
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
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
        self._sleep = sleep  # every wait between tries (tests hand in a recorder, not a clock)
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
        return max(0.0, base * self._jitter.uniform(0.5, 1.5))

    async def _request(self, messages: list[dict[str, Any]], decision: Decision) -> dict[str, Any]:
        """One request; the completion's JSON object, read here rather than by the SDK so
        that no body, however malformed, raises anything but the SDK's status and connection
        errors or MalformedResponse."""
        decision.requests += 1
        if self._limiter is not None:
            await self._limiter.wait()
        raw = await self._client.chat.completions.with_raw_response.create(
            model=self.model,
            messages=messages,  # type: ignore[arg-type]
            temperature=self.temperature,
            max_tokens=self.max_tokens,
        )
        return completion_object(raw.http_response.content)

    async def _complete(self, messages: list[dict[str, Any]], decision: Decision) -> Any:
        """One chat completion with retries; raises RuntimeError (scrubbed) when they run out."""
        import openai

        retrying = AsyncRetrying(
            retry=retry_if_exception(_transient),
            stop=stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            sleep=self._sleep,
            reraise=True,
        )
        try:
            return await retrying(self._request, messages, decision)
        except (openai.APIStatusError, openai.APIConnectionError, MalformedResponse) as exc:
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
        except Exception as exc:  # the contract's last line: whatever else, a recorded R1
            record.plan = None
            record.r1_reason = self.scrub(f"the request failed: {type(exc).__name__}: {exc}")
            record.api_failure = True
        record.latency_s = time.perf_counter() - started
        return record

    async def _ask(
        self, messages: list[dict[str, Any]], decision: Decision, accept: Accept, reask: str
    ) -> None:
        """Ask, and re-ask while the reply is unusable; fills ``decision`` as it goes."""
        for ask in range(self.max_reasks + 1):
            response = await self._complete(messages, decision)
            usage = response.get("usage")
            if isinstance(usage, dict):
                decision.usage.prompt_tokens += token_count(usage.get("prompt_tokens"))
                decision.usage.completion_tokens += token_count(usage.get("completion_tokens"))
                cost = usage.get("cost")
                if isinstance(cost, int) and not isinstance(cost, bool) and abs(cost) <= MAX_COUNT:
                    cost = float(cost)  # an int of 400 digits has no float
                if isinstance(cost, float) and math.isfinite(cost):
                    decision.usage.cost = (decision.usage.cost or 0.0) + cost
            reply = clean_text(reply_text(message_content(response)))
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


def completion_object(body: bytes) -> dict[str, Any]:
    """A response body as a chat completion's JSON object: an object with a ``choices``
    list whose first entry, if any, is an object with an object (or null) ``message``;
    MalformedResponse saying what it is instead."""
    if not body.strip():
        raise MalformedResponse("the body is empty")
    try:
        found = loads(body)
    except RecursionError:
        raise MalformedResponse("the body is JSON nested too deep to read") from None
    except json.JSONDecodeError as exc:
        raise MalformedResponse(f"the body is not JSON ({exc.msg} at byte {exc.pos})") from None
    except ValueError as exc:  # not UTF-8, or an integer past Python's 4,300 digits
        problem = f"a number too long to read, {too_long(exc)}" if "digits" in str(exc) else exc
        raise MalformedResponse(f"the body cannot be read ({problem})") from None
    if not isinstance(found, dict):
        raise MalformedResponse(f"the body is a JSON {_json_type(found)}, not a chat completion")
    choices = found.get("choices")
    if not isinstance(choices, list):
        error = found.get("error")  # OpenRouter answers some upstream failures with a 200
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            raise MalformedResponse(f"the body is an error: {clean_text(error['message'])[:200]}")
        raise MalformedResponse('the body has no "choices" list, so it is not a chat completion')
    if choices and not isinstance(choices[0], dict):
        raise MalformedResponse(f"its first choice is a JSON {_json_type(choices[0])}")
    if choices and not isinstance(choices[0].get("message"), dict | None):
        raise MalformedResponse(f"its message is a JSON {_json_type(choices[0]['message'])}")
    return found


def message_content(completion: dict[str, Any]) -> Any:
    """The first choice's message content (None where there is no choice or message)."""
    choices = completion["choices"]
    message = choices[0].get("message") if choices else None
    return message.get("content") if message else None


def _json_type(value: Any) -> str:
    names = {dict: "object", list: "list", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")


def _transient(exc: BaseException) -> bool:
    """Worth another try: 429, 5xx, a timeout or a dropped connection (APITimeoutError is
    an APIConnectionError), a 200 that is no completion; another 4xx does not heal by
    retrying."""
    import openai

    if isinstance(exc, MalformedResponse):
        return True
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
    if isinstance(exc, MalformedResponse):
        return f"HTTP 200 but {exc}"
    return f"connection failed: {exc.message}"


def _retry_after(exc: Any) -> float | None:
    """The seconds a failed response's Retry-After asks for (RFC 9110 10.2.3: seconds, or an
    HTTP date), 0 or more and possibly infinite (the caller caps it); None where it has none
    or it is neither (NaN, negative, words), so the jittered backoff applies."""
    response = getattr(exc, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return _seconds_until(value)
    return seconds if seconds >= 0 else None  # NaN compares false


def _seconds_until(date: str) -> float | None:
    """Seconds from now to an HTTP date (0 for one past), None for text that is not one."""
    try:
        when = email.utils.parsedate_to_datetime(date)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
