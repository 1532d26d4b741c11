//! `locklab room`: serves the built app and a room in which a hall votes from phones
//! (docs/ROOM.md). Prints the stage's and the voters' addresses, then serves until stopped.

use std::io::Write;

use super::args::RoomArgs;

pub fn room(a: RoomArgs) -> Result<String, String> {
    let options = locklab_room::Options { host: a.host, port: a.port, dist: a.dist, public_url: a.public_url };
    locklab_room::run(options, |addr| {
        // Printed at once (the server then runs until Ctrl-C): a script waits for these lines.
        println!("Lock Lab room, serving the app and the room until Ctrl-C.");
        println!("stage (the lecturer's screen only: its key sets the questions): {}", addr.stage);
        println!("voters (phones; the stage shows it with a QR code): {}", addr.voters);
        let _ = std::io::stdout().flush();
    })?;
    Ok(String::new())
}
