"""How a phone at the table reaches the page: this machine's LAN addresses, and its mDNS name.

A join URL and its QR code use the best LAN address (never 127.0.0.1); while the page runs,
``announce()`` answers ``clue.local`` and an ``_http._tcp`` service over mDNS (zeroconf), so a
phone that resolves ``.local`` names can also open ``http://clue.local:8000`` (docs/web.md).

>>> mdns_name()
'clue.local'
>>> mdns_name("Kitchen-Pi.local.")
'kitchen-pi.local'
>>> rank([("wlan0", "10.42.0.1"), ("docker0", "172.17.0.1"), ("eth0", "169.254.3.4")], default=None)
['10.42.0.1', '172.17.0.1']
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import ifaddr
from zeroconf import IPVersion, ServiceInfo, Zeroconf

DEFAULT_NAME = "clue"  # announced as clue.local; the Pi's avahi keeps answering <hostname>.local
SERVICE_TYPE = "_http._tcp.local."
SERVICE_TITLE = "CLUE companion"  # a second companion on the network is renamed "CLUE companion (2)"
# Interfaces no phone is on: containers, VMs and VPN tunnels. Their addresses are listed last
# and are not announced while a real one exists.
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "lxcbr", "lxdbr", "vboxnet", "vmnet", "tun", "tap",
                    "wg", "zt", "tailscale", "podman", "cni", "flannel", "cali")
# Any address outside the LAN: the kernel's source address for it is the default route's.
# TEST-NET-3 (RFC 5737) is never routed, so only a default route covers it; a UDP connect sends nothing.
_OUTSIDE = ("203.0.113.1", 9)
_LINK_LOCAL = ipaddress.ip_network("169.254.0.0/16")
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
RECHECK_SECONDS = 5.0  # how often the addresses are looked at again while announcing
STOP_SECONDS = 3.0  # how long leaving announce() may wait for zeroconf's goodbye packets
log = logging.getLogger(__name__)


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine's up, non-loopback interfaces, best first; empty if none.

    Best: the default route's address, then real interfaces (wlan, eth) before virtual ones
    (docker, bridges, VPNs), private ranges before others. Link-local (169.254/16) only if
    there is nothing else.
    """
    return rank(_interfaces(), default=default_route_address())


def rank(found: Iterable[tuple[str, str]], default: str | None) -> list[str]:
    """The addresses of ``(interface, address)`` pairs, best first (see lan_addresses)."""
    usable = [(name, address) for name, address in found if not ipaddress.ip_address(address).is_loopback]
    routable = [(name, address) for name, address in usable if ipaddress.ip_address(address) not in _LINK_LOCAL]
    chosen = routable or usable
    ordered = sorted(enumerate(chosen), key=lambda item: (item[1][1] != default, is_virtual(item[1][0]),
                                                          not ipaddress.ip_address(item[1][1]).is_private, item[0]))
    return list(dict.fromkeys(address for _, (_, address) in ordered))


def phone_addresses() -> list[str]:
    """The LAN addresses a phone may be on, best first: lan_addresses() without those of containers,
    VMs and VPNs (unless there is nothing else). Join URLs use the first."""
    pairs = _interfaces()
    real = [(name, address) for name, address in pairs if not is_virtual(name)]
    return rank(real or pairs, default=default_route_address())


def is_virtual(interface: str) -> bool:
    """Whether ``interface`` is a container, VM or VPN interface rather than the machine's own network."""
    return interface.lower().startswith(VIRTUAL_PREFIXES)


def default_route_address() -> str | None:
    """The source address of this machine's default route, or None without one (a Pi as its own hotspot)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(_OUTSIDE)
        return str(probe.getsockname()[0])
    except OSError:  # ENETUNREACH: no route out
        return None
    finally:
        probe.close()


def mdns_name(name: str | None = None) -> str:
    """The ``.local`` name phones may use: ``name`` (one DNS label, ``.local`` optional), else ``clue.local``.

    Raises ValueError for a name that is not a single DNS label.
    """
    label = (name or DEFAULT_NAME).lower().rstrip(".").removesuffix(".local")
    if not _LABEL.fullmatch(label):
        raise ValueError(f"mDNS name {name!r}: expected one word of letters, digits and '-', like 'clue'")
    return f"{label}.local"


@contextmanager
def announce(port: int, *, name: str | None = None, addresses: Sequence[str] | None = None,
             path: str = "/") -> Iterator[None]:
    """Announce the page over mDNS while open: ``<name>.local`` on ``addresses`` (default: the
    LAN addresses a phone may be on, followed as they change) and an ``_http._tcp`` service
    "CLUE companion" for ``port`` whose TXT record has the page's ``path``.

    It never blocks the caller nor raises (but for a bad ``name``: ValueError): zeroconf runs
    on its own thread, and a network without multicast only logs a warning (``mdns_unavailable``).
    """
    host = mdns_name(name)
    fixed = list(addresses) if addresses is not None else None
    announcer = _Announcer(port, host, path, (lambda: fixed) if fixed is not None else phone_addresses)
    announcer.thread.start()
    try:
        yield
    finally:
        announcer.leave.set()
        announcer.thread.join(timeout=STOP_SECONDS)


class _Announcer:
    """Keeps one service registered on its own thread, re-registering when the addresses change
    (the Wi-Fi joins, the hotspot starts), so a slow or absent network never holds the caller."""

    def __init__(self, port: int, host: str, path: str, find: Callable[[], list[str]]) -> None:
        self.port, self.host, self.path, self.find = port, host, path, find
        self.leave = threading.Event()
        self.warned: set[str] = set()  # each distinct problem is logged once, not every recheck
        self.thread = threading.Thread(target=self._run, name="mdns-announce", daemon=True)

    def _run(self) -> None:
        while not self.leave.is_set():
            addresses = self._addresses()
            if addresses:
                self._announce(addresses)
            else:
                self._warn(f"mdns_waiting: no LAN address yet; {self.host} is announced once there is one")
                self.leave.wait(RECHECK_SECONDS)

    def _announce(self, addresses: list[str]) -> None:
        """Register on ``addresses`` until leaving or until they change."""
        try:
            info = ServiceInfo(SERVICE_TYPE, f"{SERVICE_TITLE}.{SERVICE_TYPE}", port=self.port,
                               server=f"{self.host}.", parsed_addresses=addresses, properties={"path": self.path})
            zc = Zeroconf(interfaces=list(addresses), ip_version=IPVersion.V4Only)
        except (OSError, ValueError) as err:  # no multicast route, an address gone or not an address
            self._warn(f"mdns_unavailable: {getattr(err, 'strerror', None) or err}")
            self.leave.wait(RECHECK_SECONDS)
            return
        try:
            zc.register_service(info, allow_name_change=True)  # probing takes about a second
            log.info("mdns_announced: %s as %s on %s", info.name, self.host, ", ".join(addresses))
            while not self.leave.wait(RECHECK_SECONDS) and self._addresses() == addresses:
                pass
        except Exception as err:  # noqa: BLE001 - whatever zeroconf meets, the page keeps serving
            self._warn(f"mdns_unavailable: {err}")
            self.leave.wait(RECHECK_SECONDS)
        finally:
            zc.close()  # unregisters (goodbye packets) and stops zeroconf's thread

    def _addresses(self) -> list[str]:
        try:
            return self.find()
        except OSError as err:  # the interfaces could not be listed this time
            self._warn(f"mdns_no_interfaces: {err.strerror or err}")
            return []

    def _warn(self, line: str) -> None:
        if line not in self.warned:
            self.warned.add(line)
            log.warning("%s", line)


def _interfaces() -> list[tuple[str, str]]:
    return [(adapter.name, str(ip.ip)) for adapter in ifaddr.get_adapters() if _is_up(adapter.name)
            for ip in adapter.ips if ip.is_IPv4]


def _is_up(interface: str, root: Path = Path("/sys/class/net")) -> bool:
    """Whether the kernel has ``interface`` up (IFF_UP, netdevice(7)); True where /sys cannot say (not Linux).

    ifaddr lists an interface that is down but keeps its address (``ip link set eth0 down``).
    """
    try:
        flags = (root / interface.split(":")[0] / "flags").read_text()  # eth0:1 is an alias of eth0
    except OSError:
        return True
    return bool(int(flags, 16) & 0x1)
