//! Work items done on several threads and handed back in their order: `bench` and `batch`
//! solve instances on every core and still print them as the file lists them.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::Result;

/// Does `work` on every item of `items` on `jobs` threads (at least 1, at most one per item).
/// Each result goes first to `finished` as it comes (in the order the items finish), then to
/// `in_order` in the order of `items`, both on the calling thread. No item starts once `stop`
/// is raised, or once `in_order` returned false or either returned an error (which is then
/// returned, after the items already started have finished).
pub fn run<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    stop: &AtomicBool,
    work: impl Fn(&T) -> R + Sync,
    mut finished: impl FnMut(usize, &R) -> Result<()>,
    mut in_order: impl FnMut(usize, R) -> Result<bool>,
) -> Result<()> {
    let jobs = jobs.clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, halt, work) = (&next, &halt, &work);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) || halt.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send((i, work(item))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Each result waits here until all earlier ones are handed on.
        let mut pending: BTreeMap<usize, R> = BTreeMap::new();
        let mut handed = 0;
        let mut going = true;
        for (i, result) in rx {
            if !going {
                continue;
            }
            let step = finished(i, &result).and_then(|()| {
                pending.insert(i, result);
                while let Some(result) = pending.remove(&handed) {
                    handed += 1;
                    if !in_order(handed - 1, result)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            });
            if !matches!(step, Ok(true)) {
                going = false;
                halt.store(true, Ordering::Relaxed);
                step?;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_order_whatever_the_threads() {
        let items: Vec<u64> = (0..50).collect();
        for jobs in [1, 2, 5] {
            let stop = AtomicBool::new(false);
            let (mut seen, mut finished) = (Vec::new(), 0);
            run(
                &items,
                jobs,
                &stop,
                |&x| {
                    // Later items finish sooner, so the threads' order differs from the items'.
                    std::thread::sleep(std::time::Duration::from_micros(50 * (50 - x)));
                    x * x
                },
                |_, _| {
                    finished += 1;
                    Ok(())
                },
                |i, r| {
                    seen.push((i, r));
                    Ok(true)
                },
            )
            .unwrap();
            assert_eq!(finished, 50);
            assert_eq!(
                seen,
                items
                    .iter()
                    .map(|&x| (x as usize, x * x))
                    .collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn false_errors_and_stop_end_the_run() {
        let items: Vec<u32> = (0..1000).collect();
        let stop = AtomicBool::new(false);
        let mut seen = 0;
        run(
            &items,
            2,
            &stop,
            |&x| x,
            |_, _| Ok(()),
            |i, _| {
                seen += 1;
                Ok(i < 3)
            },
        )
        .unwrap();
        assert_eq!(seen, 4);
        let err = run(
            &items,
            2,
            &stop,
            |&x| x,
            |i, _| {
                anyhow::ensure!(i != 5, "item 5");
                Ok(())
            },
            |_, _| Ok(true),
        );
        assert_eq!(err.unwrap_err().to_string(), "item 5");
        stop.store(true, Ordering::Relaxed);
        let started = AtomicUsize::new(0);
        run(
            &items,
            2,
            &stop,
            |_| started.fetch_add(1, Ordering::Relaxed),
            |_, _| Ok(()),
            |_, _| Ok(true),
        )
        .unwrap();
        assert_eq!(started.load(Ordering::Relaxed), 0);
    }
}
