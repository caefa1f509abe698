"""Ctrl-C held until a step is done: :func:`minesweep.interrupts.sigint_polled`."""

from __future__ import annotations

import os
import signal

import pytest

from minesweep.interrupts import Interrupt, sigint_caught, sigint_polled


def test_a_ctrl_c_while_polled_waits_for_the_check_and_is_raised_once() -> None:
    before = signal.getsignal(signal.SIGINT)
    with sigint_polled() as check:
        check()  # nothing came: nothing raised
        os.kill(os.getpid(), signal.SIGINT)
        done = sum(range(1000))  # the step goes on to its end
        with pytest.raises(Interrupt):
            check()
        check()  # raised once
    assert done == 499500
    assert signal.getsignal(signal.SIGINT) is before


def test_polled_inside_caught_holds_the_interrupt_and_gives_the_handler_back() -> None:
    with sigint_caught() as caught:
        outer = signal.getsignal(signal.SIGINT)
        with sigint_polled() as check:
            os.kill(os.getpid(), signal.SIGINT)
            with pytest.raises(Interrupt):
                check()
        assert signal.getsignal(signal.SIGINT) is outer
        assert not caught()


def test_an_ignored_ctrl_c_stays_ignored() -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with sigint_polled() as check:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGINT)
            check()
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_program_s_own_handler_is_left_alone() -> None:
    told: list[int] = []

    def handler(signum: int, _frame: object) -> None:
        told.append(signum)

    before = signal.signal(signal.SIGINT, handler)
    try:
        with sigint_polled() as check:
            assert signal.getsignal(signal.SIGINT) is handler
            os.kill(os.getpid(), signal.SIGINT)
            check()  # the program's handler had it: nothing to raise here
        assert signal.getsignal(signal.SIGINT) is handler
    finally:
        signal.signal(signal.SIGINT, before)
    assert told == [signal.SIGINT]
