//! Analysis of a ladder by replaying its log: how well rules predict ([`evaluate`]), the
//! parameters that predict best ([`fit`]), synthetic seasons ([`simulate`]) and two rule sets
//! side by side ([`compare`]).
pub mod compare;
pub mod evaluate;
pub mod explain;
pub mod fit;
pub mod simulate;
pub mod tiers;
