//! The resolving decode: data of an older schema version translated (with skips, defaults
//! and re-indexed unions) and read as the generated type.
#![no_main]

use std::sync::OnceLock;

use avdl2rs::resolve::ResolutionPlan;
use avdl2rs_fuzz::generated::{LinkedList, Tree};
use avdl2rs_fuzz::{LINKED_LIST_V0, TREE_V0};
use libfuzzer_sys::fuzz_target;

fn plans() -> &'static (ResolutionPlan, ResolutionPlan) {
    static PLANS: OnceLock<(ResolutionPlan, ResolutionPlan)> = OnceLock::new();
    PLANS.get_or_init(|| {
        (
            ResolutionPlan::reading::<LinkedList>(LINKED_LIST_V0).expect("a readable writer"),
            ResolutionPlan::reading::<Tree>(TREE_V0).expect("a readable writer"),
        )
    })
}

fuzz_target!(|bytes: &[u8]| {
    let (list, tree) = plans();
    drop(list.decode::<LinkedList>(bytes));
    drop(tree.decode::<Tree>(bytes));
});
