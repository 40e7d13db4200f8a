"""Text protocols that let other programs use the suite's agents: GTP for Hex (HexGui,
MoHex's command set) and the Gomocup/Piskvork protocol for Gomoku (``pbrain``)."""
