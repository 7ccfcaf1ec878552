//! What-if: the same log under two sets of rules, standings side by side.
