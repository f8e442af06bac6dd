//! Hand-written types of a payment service, given an Avro schema and codec by
//! `#[derive(Avro)]` — no IDL file involved.
//!
//! `forbid(unsafe_code)` proves that the derive's expansion needs no `unsafe`.

#![forbid(unsafe_code)]

use std::collections::BTreeMap;

use avdl2rs::chrono::{DateTime, Utc};
use avdl2rs::logical::Decimal;
use avdl2rs::uuid::Uuid;
use avdl2rs::Avro;

/// A payment between two accounts.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "com.example.payments")]
#[serde(rename_all = "camelCase")]
pub struct Payment {
    /// The payment's identity.
    pub payment_id: Uuid,
    /// When the payment was accepted.
    #[avro(logical = "timestamp-millis")]
    pub accepted_at: DateTime<Utc>,
    /// The amount, in the currency's major unit.
    #[avro(precision = 18, scale = 2)]
    pub amount: Decimal,
    /// ISO 4217 currency code.
    #[avro(default = "EUR")]
    pub currency: String,
    /// Where the money goes.
    pub method: Method,
    /// The state of the payment.
    pub status: Status,
    /// Free-form labels.
    pub labels: BTreeMap<String, String>,
    /// A payment this one refunds.
    pub refund_of: Option<Uuid>,
}

/// The state of a payment.
#[derive(Avro, Debug, Clone, Copy, PartialEq)]
#[avro(namespace = "com.example.payments")]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    /// Waiting for the bank.
    Pending,
    /// Settled.
    Settled,
    /// Rejected by the bank.
    Rejected,
}

/// How a payment is made: a union of records.
#[derive(Avro, Debug, Clone, PartialEq)]
pub enum Method {
    /// A card payment.
    Card(Card),
    /// A bank transfer to an IBAN.
    Transfer(Transfer),
}

/// A card, by its last digits.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "com.example.payments")]
pub struct Card {
    /// The last four digits.
    pub last4: String,
}

/// A bank transfer.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "com.example.payments")]
pub struct Transfer {
    /// The receiving account.
    pub iban: String,
}

/// A sample payment.
pub fn sample() -> Payment {
    Payment {
        payment_id: Uuid::from_u128(0x6f1c_2a3b_4c5d_4e6f_8a9b_0c1d_2e3f_4a5b),
        accepted_at: DateTime::from_timestamp_millis(1_767_225_600_123).expect("in range"),
        amount: Decimal::from_i128(12_345, 2),
        currency: "EUR".into(),
        method: Method::Transfer(Transfer {
            iban: "DE89370400440532013000".into(),
        }),
        status: Status::Settled,
        labels: BTreeMap::from([("channel".to_owned(), "web".to_owned())]),
        refund_of: None,
    }
}
