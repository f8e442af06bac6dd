use avdl2rs::logical::Decimal;
use avdl2rs::chrono::NaiveDate;
use avdl2rs::Avro;

#[derive(Avro)]
#[avro(name = "not-valid", namespace = "a..b", colour = "red")]
struct Attributes {
    #[avro(default = "text")]
    number: i32,
    #[avro(order = "sideways")]
    ordered: i32,
    #[avro(logical = "timestamp-millis")]
    day: NaiveDate,
    price: Decimal,
    #[avro(rename = "two words")]
    spaced: i32,
    #[avro(default = some_function())]
    computed: i32,
}

fn main() {}
