"""calckit.units: the one place where numbers become text."""

from __future__ import annotations

import math

import pytest

from calckit.units import format_money, format_number, format_percent, format_si


class TestFormatSI:
    @pytest.mark.parametrize(
        ("value", "unit", "text"),
        [
            (3.35e12, "B/s", "3.35 TB/s"),
            (9.89e14, "FLOP/s", "989 TFLOP/s"),
            (1.4e12, "B/s", "1.4 TB/s"),  # the corrected MBU example: 7e9 params x 2 B x 100 tok/s
            (999.7e12, "FLOP/s", "1 PFLOP/s"),  # rounding carries into the next prefix
            (2.1e16, "B/s", "21 PB/s"),  # Cerebras WSE-3 on-chip bandwidth
            (1.0, "W", "1 W"),
            (0.0123, "s", "12.3 ms"),
            (0, "B", "0 B"),
            (-3.35e12, "B/s", "-3.35 TB/s"),
            (6.132e6, "Wh", "6.13 MWh"),
            (8.4e23, "FLOP", "8.4 × 10²³ FLOP"),  # 6 N D for a 70 B model on 2 T tokens: no zetta, few know it
            (3.1e25, "FLOP", "3.1 × 10²⁵ FLOP"),
            (2e18, "FLOP", "2 EFLOP"),
            (59.9, "s", "59.9 s"),
            (59.96, "s", "1 min"),  # rounds to 60 s: a minute
            (1780, "s", "29.7 min"),  # was 1.78 ks (issue 41)
            (3594, "s", "59.9 min"),
            (3599, "s", "1 h"),
            (7.2e5, "s", "200 h"),
            (3.6e9, "s", "1 million h"),
            (-1780, "s", "-29.7 min"),
            (1780, "B", "1.78 kB"),  # only seconds
        ],
    )
    def test_prefixes_and_three_significant_digits(self, value: float, unit: str, text: str) -> None:
        """Values get the SI prefix that puts them in [1, 1000), to three significant digits, zeros dropped."""
        assert format_si(value, unit) == text

    @pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
    def test_refuses_non_finite(self, value: float) -> None:
        """A NaN or an infinity never becomes text on a page."""
        with pytest.raises(ValueError, match="non-finite"):
            format_si(value, "B")


class TestFormatNumber:
    @pytest.mark.parametrize(
        ("value", "unit", "text"),
        [
            (295.2238805970149, "FLOP/byte", "295 FLOP/byte"),
            (240.2439024390244, "FLOP/byte", "240 FLOP/byte"),
            (1979, "", "1,980"),
            (0.0123, "s", "0.0123 s"),
            (0.5, "", "0.5"),
            (1e6, "", "1 million"),
            (1.87e6, "chip-hours", "1.87 million chip-hours"),
            (2.5e14, "", "250 trillion"),
            (1e15, "", "1 × 10¹⁵"),
            (2.5e-5, "", "2.5 × 10⁻⁵"),
            (0, "", "0"),
        ],
    )
    def test_plain_numbers(self, value: float, unit: str, text: str) -> None:
        """Three significant digits with grouping; million to trillion in words; powers of ten outside those."""
        assert format_number(value, unit) == text

    def test_refuses_nan(self) -> None:
        with pytest.raises(ValueError, match="non-finite"):
            format_number(math.nan)


class TestFormatPercent:
    @pytest.mark.parametrize(
        ("fraction", "text"), [(0.33872598584428715, "33.9%"), (0.7, "70%"), (1.0, "100%"), (0.001234, "0.123%")]
    )
    def test_percentages(self, fraction: float, text: str) -> None:
        assert format_percent(fraction) == text


class TestFormatMoney:
    @pytest.mark.parametrize(
        ("value", "text"),
        [
            (919.8, "$919.80"),  # cents are written, as on a price
            (12345.6, "$12,345.60"),
            (4.56e6, "$4.56 million"),
            (0, "$0.00"),
            (0.001, "under $0.01"),
            (-3.2, "-$3.20"),
        ],
    )
    def test_as_prices_are_written(self, value: float, text: str) -> None:
        assert format_money(value) == text

    def test_a_currency_without_a_sign_follows_the_amount(self) -> None:
        assert format_money(12.5, "EUR") == "12.50 EUR"
