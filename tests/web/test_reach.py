"""Phones reach the page: join URLs use an address on the table's network, and mDNS announces it."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ifaddr
import pytest
from zeroconf import AddressResolverIPv4  # type: ignore[attr-defined]  # exported, missing from __all__
from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceListener, Zeroconf

from web import reach
from web.serve import page_url

LOOPBACK = ("lo", "127.0.0.1")


def network(monkeypatch: pytest.MonkeyPatch, *interfaces: tuple[str, str], default: str | None = None,
            down: tuple[str, ...] = ()) -> None:
    """Fake this machine's interfaces (name, IPv4 address), its default route's address and which are down."""
    adapters = [ifaddr.Adapter(name, name, [ifaddr.IP(address, 24, name), ifaddr.IP(("fe80::1", 0, 2), 64, name)])
                for name, address in interfaces]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: adapters)
    monkeypatch.setattr(reach, "default_route_address", lambda: default)
    monkeypatch.setattr(reach, "_is_up", lambda name: name not in down)


def test_a_pi_as_its_own_hotspot_gives_phones_its_hotspot_address(monkeypatch: pytest.MonkeyPatch) -> None:
    network(monkeypatch, LOOPBACK, ("eth0", "169.254.10.7"), ("wlan0", "10.42.0.1"), default=None)
    assert reach.lan_addresses() == ["10.42.0.1"]
    assert page_url("0.0.0.0", 8000) == "http://10.42.0.1:8000"


def test_docker_bridges_come_after_the_wifi_and_are_not_given_to_phones(monkeypatch: pytest.MonkeyPatch) -> None:
    network(monkeypatch, LOOPBACK, ("docker0", "172.17.0.1"), ("br-5e1f0a", "172.18.0.1"),
            ("veth12ab", "172.17.0.9"), ("wlan0", "192.168.1.20"), default=None)
    assert reach.lan_addresses() == ["192.168.1.20", "172.17.0.1", "172.18.0.1", "172.17.0.9"]
    assert reach.phone_addresses() == ["192.168.1.20"]
    assert page_url("::", 8000) == "http://192.168.1.20:8000"


def test_the_default_routes_address_comes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    network(monkeypatch, LOOPBACK, ("wlan0", "10.42.0.1"), ("eth0", "81.2.69.160"), default="81.2.69.160")
    assert reach.lan_addresses() == ["81.2.69.160", "10.42.0.1"]


def test_private_addresses_come_before_public_ones_without_a_default_route(monkeypatch: pytest.MonkeyPatch) -> None:
    network(monkeypatch, LOOPBACK, ("eth0", "81.2.69.160"), ("wlan0", "192.168.4.1"), default=None)
    assert reach.lan_addresses() == ["192.168.4.1", "81.2.69.160"]


def test_a_link_local_address_is_used_only_when_there_is_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    network(monkeypatch, LOOPBACK, ("eth0", "169.254.10.7"))
    assert reach.lan_addresses() == ["169.254.10.7"]


def test_an_interface_that_is_down_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    network(monkeypatch, LOOPBACK, ("eth0", "192.168.1.5"), ("wlan0", "10.42.0.1"), down=("eth0",))
    assert reach.lan_addresses() == ["10.42.0.1"]


def test_the_kernels_up_flag_is_read_from_sys(tmp_path: Path) -> None:
    for name, flags in (("wlan0", "0x1003"), ("eth0", "0x1002")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "flags").write_text(flags + "\n")
    assert reach._is_up("wlan0:1", tmp_path) and not reach._is_up("eth0", tmp_path)
    assert reach._is_up("en0", tmp_path)  # nothing to read (not Linux): assumed up


def test_with_no_network_the_url_uses_the_mdns_name_and_says_so(monkeypatch: pytest.MonkeyPatch,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    network(monkeypatch, LOOPBACK)
    assert reach.lan_addresses() == []
    with caplog.at_level(logging.WARNING, logger="web.serve"):
        assert page_url("0.0.0.0", 8000) == "http://clue.local:8000"
    assert "no network address yet" in caplog.text


def test_a_chosen_host_is_shown_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    network(monkeypatch, LOOPBACK, ("wlan0", "192.168.1.20"))
    assert page_url("127.0.0.1", 8001) == "http://127.0.0.1:8001"
    assert page_url("fd00::2", 8001) == "http://[fd00::2]:8001"


def test_the_mdns_name_is_one_label_under_local() -> None:
    assert reach.mdns_name() == "clue.local"
    assert reach.mdns_name("Kitchen") == reach.mdns_name("kitchen.local.") == "kitchen.local"
    for bad in ("two.words", "-clue", "cl ue", "x" * 64):
        with pytest.raises(ValueError, match="mDNS name"):
            reach.mdns_name(bad)


class Services(ServiceListener):
    """What a phone's browser sees: services appearing and leaving."""

    def __init__(self) -> None:
        self.added: list[str] = []
        self.removed: list[str] = []
        self.changed = threading.Condition()

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        with self.changed:
            self.added.append(name)
            self.changed.notify_all()

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        with self.changed:
            self.removed.append(name)
            self.changed.notify_all()

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        pass

    def wait_for(self, names: list[str], count: int) -> None:
        with self.changed:
            self.changed.wait_for(lambda: len(names) >= count, timeout=4)

    def wait_until_removed(self, name: str) -> None:
        with self.changed:
            self.changed.wait_for(lambda: name in self.removed, timeout=4)


@pytest.fixture
def phone() -> Iterator[Zeroconf]:
    zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    yield zc
    zc.close()


def wait_for_ours(zc: Zeroconf, services: Services, server: str, seconds: float = 8.0) -> ServiceInfo | None:
    """Our service once it is seen: another companion on this machine (a test in another process) may be
    announcing under the same title, and be seen first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        services.wait_for(services.added, 1)
        info = ours(zc, list(services.added), server)
        if info is not None:
            return info
        time.sleep(0.2)
    return None


def ours(zc: Zeroconf, names: list[str], server: str) -> ServiceInfo | None:
    """The service among ``names`` on ``server`` (other companions may be announcing on this network)."""
    for name in names:
        info = zc.get_service_info(reach.SERVICE_TYPE, name, timeout=1500)
        if info is not None and info.server == server:
            return info
    return None


def test_announce_registers_the_page_and_its_name_and_says_goodbye(phone: Zeroconf) -> None:
    name = f"clue-test-{os.getpid()}"
    services = Services()
    browser = ServiceBrowser(phone, reach.SERVICE_TYPE, services)
    try:
        with reach.announce(8123, name=name, addresses=["127.0.0.1"], path="/"):
            info = wait_for_ours(phone, services, f"{name}.local.")
            assert info is not None, services.added
            assert info.name.startswith(reach.SERVICE_TITLE) and info.port == 8123
            assert info.properties == {b"path": b"/"} and info.parsed_addresses() == ["127.0.0.1"]
            resolver = AddressResolverIPv4(f"{name}.local.")  # what a phone asks for http://<name>.local
            assert resolver.request(phone, 2000) and resolver.parsed_addresses() == ["127.0.0.1"]
        services.wait_until_removed(info.name)
        assert info.name in services.removed
    finally:
        browser.cancel()


class FakeZeroconf:
    """Zeroconf that records what is registered, or fails as a network without multicast does."""

    made: list[FakeZeroconf] = []
    failure: Exception | None = None
    register_seconds = 0.0

    def __init__(self, interfaces: list[str], ip_version: IPVersion) -> None:
        if FakeZeroconf.failure is not None:
            raise FakeZeroconf.failure
        self.interfaces = interfaces
        self.registered: list[ServiceInfo] = []
        self.closed = False
        FakeZeroconf.made.append(self)

    def register_service(self, info: ServiceInfo, allow_name_change: bool = False) -> None:
        time.sleep(FakeZeroconf.register_seconds)
        self.registered.append(info)

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_zeroconf(monkeypatch: pytest.MonkeyPatch) -> type[FakeZeroconf]:
    monkeypatch.setattr(FakeZeroconf, "made", [])
    monkeypatch.setattr(reach, "Zeroconf", FakeZeroconf)
    monkeypatch.setattr(reach, "RECHECK_SECONDS", 0.02)
    return FakeZeroconf


def eventually(check: Any, seconds: float = 2.0) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_without_multicast_the_companion_carries_on_and_says_so_once(
        fake_zeroconf: type[FakeZeroconf], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(fake_zeroconf, "failure", OSError(19, "No such device"))
    with caplog.at_level(logging.WARNING, logger="web.reach"):
        with reach.announce(8000, addresses=["10.42.0.1"]):
            time.sleep(0.15)  # several rechecks
    assert [r.getMessage() for r in caplog.records] == ["mdns_unavailable: No such device"]


def test_announcing_never_holds_the_caller(fake_zeroconf: type[FakeZeroconf], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fake_zeroconf, "register_seconds", 1.0)
    started = time.monotonic()
    with reach.announce(8000, addresses=["10.42.0.1"]):
        entered = time.monotonic() - started
    assert entered < 0.5  # registering takes 1 s here: a caller held by it would wait that long
    assert eventually(lambda: fake_zeroconf.made and fake_zeroconf.made[0].closed)


def test_the_announcement_follows_the_network_as_it_comes_up(fake_zeroconf: type[FakeZeroconf],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    now: list[str] = []  # no network at first: the hotspot starts after the companion
    monkeypatch.setattr(reach, "phone_addresses", lambda: list(now))
    with reach.announce(8000, name="clue"):
        time.sleep(0.1)
        assert fake_zeroconf.made == []
        now.append("10.42.0.1")
        assert eventually(lambda: len(fake_zeroconf.made) == 1 and fake_zeroconf.made[0].registered)
        now[:] = ["192.168.1.20"]  # joined the house Wi-Fi instead
        assert eventually(lambda: len(fake_zeroconf.made) == 2 and fake_zeroconf.made[1].registered)
    first, second = fake_zeroconf.made
    assert first.closed and first.interfaces == ["10.42.0.1"]
    assert second.registered[0].parsed_addresses() == ["192.168.1.20"] and second.registered[0].server == "clue.local."
    assert eventually(lambda: second.closed)
