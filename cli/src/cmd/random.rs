//! `avdl2rs random --schema FILE --count N [--seed K] [-o OUT]`: a container file of valid
//! random records, the same bytes for the same seed (the sync marker is drawn from it too).

use avdl2rs_container::WriterBuilder;

use super::container::{write_failure, CodecArg};
use crate::io::{Failure, Output};
use crate::random_data::RandomData;
use crate::schema_file::SchemaOption;

/// Arguments of `random`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs random --schema examples/orders/schemas/orders.avdl --count 1000 -o orders.avro\n  \
    avdl2rs random --schema event.avsc --count 10 --seed 42 | avdl2rs tojson -\n\n\
    Values respect the schema's logical types (dates and timestamps between 1970 and 2100,\n\
    times within a day, version-4 UUIDs, decimals within their precision); recursive types\n\
    stop growing a few levels down (empty arrays and maps, the union branch that nests least).")]
pub struct Args {
    /// The schema of the records.
    #[command(flatten)]
    pub schema: SchemaOption,
    /// How many records to write.
    #[arg(long, value_name = "N")]
    pub count: u64,
    /// The seed of the generator; the same seed gives the same file. Random when absent.
    #[arg(long, value_name = "K")]
    pub seed: Option<u64>,
    /// The compression codec of the blocks.
    #[command(flatten)]
    pub codec: CodecArg,
    /// The container file to write; `-` or absent for stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT", default_value = "-")]
    pub output: Output,
}

/// Writes `--count` random records.
pub fn run(args: &Args) -> Result<(), Failure> {
    let loaded = args.schema.load()?;
    let mut rng = fastrand::Rng::with_seed(args.seed.unwrap_or_else(|| fastrand::u64(..)));
    let sync = rng.u128(..).to_le_bytes();
    let failure = |e| write_failure(&args.output, e);
    args.output.write_with(|out| {
        let mut writer = WriterBuilder::new()
            .codec(args.codec.codec)
            .sync_marker(sync)
            .build_datums(&loaded.json(), out)
            .map_err(failure)?;
        let mut values = RandomData::new(&loaded.set, rng);
        let mut datum = Vec::new();
        for _ in 0..args.count {
            datum.clear();
            values
                .write(&loaded.schema, &mut datum)
                .map_err(|e| Failure::Message(format!("{}: {e}", args.schema.path.display())))?;
            writer.append_encoded(&datum).map_err(failure)?;
        }
        writer.finish().map_err(failure)?;
        Ok(())
    })
}
