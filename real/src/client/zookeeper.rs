//! docs/PROTOCOLS.md P4 on a real ZooKeeper 3.8: a session with the scenario's timeout (the server
//! clamps it to 2–20 ticks), kept alive by the client library on a runtime thread of the
//! client's process (frozen with it by SIGSTOP); `create /lock/guid-lock-` EPHEMERAL_SEQUENTIAL;
//! the lowest sequence holds the lock, with its czxid as the token. A waiter lists the children
//! every 5 ms until its node is lowest (the recipe watches the next-lower node: here the grant
//! can come up to 5 ms later). The holder learns its session is gone when the library reports
//! Expired (after its reconnect is refused); Disconnected alone keeps the belief, as Curator's
//! SUSPENDED does. Release deletes the node.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::runtime::Runtime;
use zookeeper_client as zk;

use super::{Agent, Session};
use crate::clock::now_ns;
use crate::record::{Failure, Job};

pub const PARENT: &str = "/lock";
const PREFIX: &str = "/lock/guid-lock-";

pub struct ZkAgent {
    rt: Runtime,
    client: zk::Client,
    name: String,
    node: Option<String>,
    timeout: Duration,
    session: Session,
}

/// The children of `/lock`, lowest sequence first.
pub async fn queue(client: &zk::Client) -> Result<Vec<String>, zk::Error> {
    let mut children = client.list_children(PARENT).await?;
    // The suffix is the sequence, zero-padded: the names sort as the numbers do.
    children.sort_by(|a, b| a.rsplit('-').next().cmp(&b.rsplit('-').next()));
    Ok(children)
}

impl ZkAgent {
    pub fn connect(job: &Job, addr: &str, timeout: Duration) -> Result<ZkAgent, String> {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().map_err(|e| e.to_string())?;
        let session = Duration::from_millis((job.ttl_ms as f64 * job.scale) as u64);
        let client = rt
            .block_on(zk::Client::connector().with_session_timeout(session).with_connection_timeout(timeout).connect(addr))
            .map_err(|e| format!("zookeeper {addr}: {e}"))?;
        let session = Session::default();
        let (mut watcher, lost) = (client.state_watcher(), Arc::clone(&session.lost_at));
        rt.spawn(async move {
            loop {
                if watcher.changed().await == zk::SessionState::Expired {
                    lost.store(now_ns(), Ordering::SeqCst);
                    return;
                }
            }
        });
        Ok(ZkAgent { rt, client, name: job.name.clone(), node: None, timeout, session })
    }
}

impl Agent for ZkAgent {
    fn acquire(&mut self, _attempt: u32) -> Result<Option<u64>, Failure> {
        let options = zk::CreateMode::EphemeralSequential.with_acls(zk::Acls::anyone_all());
        let (client, timeout) = (&self.client, self.timeout);
        let call = async { tokio::time::timeout(timeout, client.create(PREFIX, self.name.as_bytes(), &options)).await };
        let (stat, sequence) = self.rt.block_on(call).map_err(|_| Failure::Unreachable)?.map_err(|_| Failure::Unreachable)?;
        let mine = format!("guid-lock-{sequence}");
        self.node = Some(format!("{PARENT}/{mine}"));
        loop {
            if self.lost_at().is_some() {
                return Err(Failure::SessionExpired);
            }
            let read_at = now_ns();
            match self.rt.block_on(async { tokio::time::timeout(timeout, queue(client)).await }) {
                Ok(Ok(children)) if children.first() == Some(&mine) => {
                    self.session.read_at = Some(read_at);
                    return Ok(Some(stat.czxid as u64));
                }
                Ok(Ok(children)) if !children.contains(&mine) => return Err(Failure::SessionExpired),
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    }

    fn release(&mut self) -> bool {
        let Some(node) = self.node.take() else { return false };
        let (client, timeout) = (&self.client, self.timeout);
        matches!(self.rt.block_on(async { tokio::time::timeout(timeout, client.delete(&node, None)).await }), Ok(Ok(())))
    }

    fn session(&self) -> Option<&Session> {
        Some(&self.session)
    }
}
