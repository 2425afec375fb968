"""A Cyclone DDS participant on one network interface and domain, with readers and writers
for the G1's topics: how Unitree's SDK joins the robot's network (``ChannelFactoryInitialize``
in unitree_sdk2py), without its singletons.

On the robot's network the interface is the one wired to the G1 (Unitree's docs use a static
192.168.123.x address); in tests it is ``lo``, so nothing leaves the machine.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import weakref
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import quoteattr

from cyclonedds.core import Listener, Policy, Qos
from cyclonedds.domain import Domain, DomainParticipant
from cyclonedds.pub import DataWriter
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic

LOOPBACK = "lo"
# One domain per process and id: a second Channel on the same domain reuses it.
_DOMAINS: dict[int, tuple[str, Domain]] = {}
_LOCK = threading.Lock()


def domain_config(interface: str) -> str:
    """Cyclone DDS configuration that binds to ``interface`` only. On loopback, which has no
    multicast, peers are found by unicast to 127.0.0.1 (participant indices auto-assigned)."""
    nic = f'<NetworkInterface name={quoteattr(interface)} priority="default" multicast="default"/>'
    general = f"<Interfaces>{nic}</Interfaces>"
    discovery = ""
    if interface == LOOPBACK:
        general += "<AllowMulticast>false</AllowMulticast>"
        discovery = (
            "<Discovery><ParticipantIndex>auto</ParticipantIndex>"
            "<MaxAutoParticipantIndex>60</MaxAutoParticipantIndex>"
            '<Peers><Peer address="127.0.0.1"/></Peers></Discovery>'
        )
    domain = f'<Domain Id="any"><General>{general}</General>{discovery}</Domain>'
    return f"<CycloneDDS>{domain}</CycloneDDS>"


class ChannelError(RuntimeError):
    """DDS could not start on the interface and domain asked for."""


class Channel:
    """Readers and writers of one participant (``domain``, ``interface``)."""

    def __init__(self, domain: int = 0, interface: str = LOOPBACK) -> None:
        if not 0 <= domain <= 232:
            raise ChannelError(f"DDS domain {domain} is outside 0-232")
        with _LOCK:
            known = _DOMAINS.get(domain)
            if known is not None and known[0] != interface:
                raise ChannelError(
                    f"DDS domain {domain} is already open on {known[0]!r} in this process, "
                    f"not {interface!r}"
                )
            if known is None:
                try:
                    _DOMAINS[domain] = (interface, Domain(domain, domain_config(interface)))
                except Exception as error:  # cyclonedds raises DDSException with a code
                    raise ChannelError(
                        f"cannot start DDS on interface {interface!r}, domain {domain}: {error} "
                        "(is the interface up? `ip link` lists them)"
                    ) from error
        self.domain = domain
        self.interface = interface
        self.participant = DomainParticipant(domain)
        self._topics: dict[str, Topic] = {}
        self._readers: list[DataReader] = []
        self._writers: list[DataWriter] = []
        _OPEN.add(self)

    def close(self) -> None:
        """Stop the listeners and delete this participant's readers, writers and topics. Also
        run at exit: a listener called back while Python shuts down crashes the process."""
        for reader in self._readers:
            with contextlib.suppress(Exception):
                reader.set_listener(None)
        for entity in [*self._readers, *self._writers, *self._topics.values()]:
            with contextlib.suppress(Exception):
                entity.__del__()
        with contextlib.suppress(Exception):
            self.participant.__del__()
        self._readers, self._writers, self._topics = [], [], {}
        _OPEN.discard(self)

    def _topic(self, name: str, kind: type) -> Topic:
        if name not in self._topics:
            self._topics[name] = Topic(self.participant, name, kind)
        return self._topics[name]

    def writer(self, name: str, kind: type) -> DataWriter:
        writer = DataWriter(self.participant, self._topic(name, kind))
        self._writers.append(writer)
        return writer

    def reader(
        self, name: str, kind: type, on_message: Callable[[Any], None], depth: int = 10
    ) -> DataReader:
        """A reader calling ``on_message`` for every sample, on Cyclone's listener thread."""

        def available(reader: DataReader | None) -> None:
            if reader is None:  # a sample arriving while the reader is being deleted
                return
            for sample in reader.take(depth):
                if isinstance(sample, kind):  # not the InvalidSample of a writer that left
                    on_message(sample)

        qos = Qos(Policy.History.KeepLast(depth))
        reader = DataReader(
            self.participant,
            self._topic(name, kind),
            qos=qos,
            listener=Listener(on_data_available=available),
        )
        self._readers.append(reader)
        return reader


_OPEN: weakref.WeakSet[Channel] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for channel in list(_OPEN):
        channel.close()
