//! Which codec a name in a header means, and whether this build can read and write it: the
//! part of [`Codec`] that fails with the crate's [`Error`], which itself names codecs.

use crate::codec::Codec;
use crate::error::Error;

impl Codec {
    /// The codec named `name`, whether compiled in or not; an unknown name is an error.
    pub fn from_name(name: &str) -> Result<Codec, Error> {
        Codec::ALL
            .into_iter()
            .find(|codec| codec.name() == name)
            .ok_or_else(|| Error::UnknownCodec(name.to_owned()))
    }

    /// Whether this build can read and write the codec (its feature is enabled).
    pub fn is_enabled(self) -> bool {
        self.check_enabled().is_ok()
    }

    /// Fails with [`Error::CodecNotEnabled`] unless the codec's feature is enabled.
    pub(crate) fn check_enabled(self) -> Result<(), Error> {
        let (enabled, feature) = match self {
            Codec::Null => (true, ""),
            Codec::Deflate => (cfg!(feature = "deflate"), "deflate"),
            Codec::Snappy => (cfg!(feature = "snappy"), "snappy"),
            Codec::Zstandard => (cfg!(feature = "zstandard"), "zstandard"),
            Codec::Bzip2 => (cfg!(feature = "bzip2"), "bzip2"),
            Codec::Xz => (cfg!(feature = "xz"), "xz"),
        };
        if enabled {
            Ok(())
        } else {
            Err(Error::CodecNotEnabled {
                codec: self.name(),
                feature,
            })
        }
    }
}

impl std::str::FromStr for Codec {
    type Err = Error;

    fn from_str(name: &str) -> Result<Codec, Error> {
        Codec::from_name(name)
    }
}
