//! Simulation: a synthetic population with known true skills, played through the ladder.
