"""The referee core: seats, clocks, faults and the table a protocol adapter plays through."""
