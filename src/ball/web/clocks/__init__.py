"""Table clocks on the web (`/clock/…`): the clocks' JSON API, the table clock page, the
arbiter's clock desk, and the words of the clock scripts."""
