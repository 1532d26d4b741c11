//! Lock Lab's room (issue 36, "A hall that votes"; docs/ROOM.md): `locklab room` serves the
//! built app and a room in which a hall votes on the lecture's questions from phones. The
//! stage (the app opened with the presenter key) announces each question, never its answer;
//! phones vote once per question; the stage counts the votes as the hand tally it has.
//!
//! Native only: the CLI depends on this crate for native targets, the app's wasm never does.

pub mod protocol;
pub mod server;
pub mod state;

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::path::PathBuf;

pub use server::Room;

/// How `locklab room` was asked to run.
pub struct Options {
    /// The address to listen on: all interfaces (0.0.0.0) so that phones on the network reach it.
    pub host: IpAddr,
    pub port: u16,
    /// The app's built dist folder (index.html and the wasm).
    pub dist: PathBuf,
    /// The address phones and the stage use when it is not this machine's (a VM behind a proxy
    /// or a name): `https://room.example.org`, without a path.
    pub public_url: Option<String>,
}

/// What `locklab room` prints: the lecturer's stage (with the presenter key in it: keep it to
/// the lecturer's screen) and the voters' short address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Addresses {
    pub stage: String,
    pub voters: String,
}

impl Addresses {
    /// The addresses for a server reachable at `base` (`http://host:port`) with `key`.
    pub fn new(base: &str, stage_base: &str, key: &str) -> Addresses {
        Addresses { stage: format!("{stage_base}/?room={key}"), voters: format!("{base}{}", server::VOTER_PATH) }
    }
}

/// A new presenter key: 128 random bits from the operating system, as 32 hex digits.
pub fn new_key() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::getrandom(&mut bytes).map_err(|e| format!("room: no randomness for the presenter key ({e})"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// This machine's address on the network phones use: the interface the default route leaves by
/// (a UDP socket "connected" to a public address sends nothing), or loopback without a network.
fn lan_address() -> IpAddr {
    let probe = || -> std::io::Result<IpAddr> {
        let s = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))?;
        s.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
        Ok(s.local_addr()?.ip())
    };
    probe().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
}

/// The base addresses for phones and for the stage, from the options and the bound port.
fn bases(o: &Options, port: u16) -> (String, String) {
    if let Some(public) = &o.public_url {
        let public = public.trim_end_matches('/').to_string();
        return (public.clone(), public);
    }
    let host = |ip: IpAddr| match ip {
        IpAddr::V6(v6) => format!("[{v6}]"),
        IpAddr::V4(v4) => v4.to_string(),
    };
    let (voters, stage) = if o.host.is_unspecified() { (lan_address(), IpAddr::V4(Ipv4Addr::LOCALHOST)) } else { (o.host, o.host) };
    (format!("http://{}:{port}", host(voters)), format!("http://{}:{port}", host(stage)))
}

/// Checks the options, binds, calls `ready` with the addresses, and serves until the process
/// ends. Err: why it could not start (the dist folder, the port).
pub fn run(o: Options, ready: impl FnOnce(&Addresses)) -> Result<(), String> {
    if !o.dist.join("index.html").is_file() {
        return Err(format!(
            "--dist: {} has no index.html; build the app first (trunk build --release, or scripts/test.sh's release build)",
            o.dist.display()
        ));
    }
    if let Some(p) = &o.public_url {
        if !(p.starts_with("http://") || p.starts_with("https://")) {
            return Err(format!("--public-url: expected http://… or https://…, got \"{p}\""));
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| format!("room: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(o.host, o.port))
            .await
            .map_err(|e| format!("--port: cannot listen on {}:{} ({e})", o.host, o.port))?;
        let port = listener.local_addr().map_err(|e| format!("room: {e}"))?.port();
        let (voters, stage) = bases(&o, port);
        let key = new_key()?;
        let addresses = Addresses::new(&voters, &stage, &key);
        let room = Room::new(key, addresses.voters.clone());
        ready(&addresses);
        server::serve(listener, room, &o.dist).await.map_err(|e| format!("room: {e}"))
    })
}
