//! [`Worker`]: a thread that decompresses the blocks handed to it, one at a time, so that a
//! reader can decode one block's records while the next block is decompressed.

use std::io;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread;

use crate::codec::Codec;
use crate::decompress::Decompressor;
use crate::error::Damage;

/// One block to decompress, and then its outcome; the buffers travel with it.
#[derive(Debug)]
pub(crate) struct Job {
    /// The compressed data.
    pub(crate) compressed: Vec<u8>,
    /// The buffer the data is decompressed into.
    pub(crate) out: Vec<u8>,
    limit: usize,
    /// Whether decompression succeeded.
    pub(crate) result: Result<(), Damage>,
}

/// The decompression thread of one reader; it ends when the reader drops it.
#[derive(Debug)]
pub(crate) struct Worker {
    jobs: Sender<Job>,
    done: Receiver<Job>,
}

impl Worker {
    /// Starts a thread decompressing `codec`'s blocks.
    pub(crate) fn start(codec: Codec) -> io::Result<Worker> {
        let (jobs, todo) = channel::<Job>();
        let (finished, done) = channel();
        thread::Builder::new()
            .name(format!("avro-{codec}"))
            .spawn(move || {
                let mut decompressor = Decompressor::new(codec);
                for mut job in todo {
                    job.result = decompressor.decompress(&job.compressed, &mut job.out, job.limit);
                    if finished.send(job).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Worker { jobs, done })
    }

    /// Hands over `compressed` to be decompressed into `out`, producing at most `limit`
    /// bytes; [`Self::wait`] returns the outcome.
    pub(crate) fn hand_over(&self, compressed: Vec<u8>, out: Vec<u8>, limit: usize) {
        let job = Job {
            compressed,
            out,
            limit,
            result: Ok(()),
        };
        // A thread that has stopped is reported by `wait`.
        let _ = self.jobs.send(job);
    }

    /// The job handed over last, once it is done.
    pub(crate) fn wait(&self) -> io::Result<Job> {
        self.done
            .recv()
            .map_err(|_| io::Error::other("the decompression thread stopped"))
    }
}
