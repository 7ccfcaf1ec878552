//! A shared ladder's password asked for at the terminal: only when the server asks for one
//! and none is in the URL, `PGPASSFILE` or `~/.pgpass`, and only where a person can type it
//! (stdin and stderr a terminal; a script gets the message that says where to put it). It
//! is read without echo (rpassword), kept in this process's memory for its other
//! connections, and never printed, logged or stored.

use rungs_gate::ActionError;
use rungs_gate::shared::Session;
use rungs_store::shared::{LadderUrl, Server, SharedError};
use std::io::IsTerminal as _;
use std::sync::Mutex;

/// The password typed in this process, if one was.
static TYPED: Mutex<Option<String>> = Mutex::new(None);

fn typed() -> Option<String> {
    TYPED.lock().ok().and_then(|t| t.clone())
}

fn asks_password(e: &SharedError) -> bool {
    matches!(e, SharedError::NoPassword { .. })
}

/// Asks for the password of `role` at `place`, without echo; `None` where no one can type.
fn ask(place: &str, role: &str) -> Option<String> {
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return None;
    }
    let password = rpassword::prompt_password(format!("password for {role} at {place}: ")).ok()?;
    if let Ok(mut t) = TYPED.lock() {
        *t = Some(password.clone());
    }
    Some(password)
}

/// [`Session::open`], asking for the password at the terminal when the server needs one.
pub fn open_session(text: &str) -> Result<Session, ActionError> {
    match Session::open_with_password(text, typed().as_deref()) {
        Err(ActionError::Shared(e)) if asks_password(&e) => {
            let url = LadderUrl::parse(text)?;
            match ask(&url.shown, &url.user()) {
                Some(p) => Session::open_with_password(text, Some(&p)),
                None => Err(ActionError::Shared(e)),
            }
        }
        other => other,
    }
}

/// [`Server::connect`], asking for the password at the terminal when the server needs one.
pub fn connect(url: &LadderUrl) -> Result<Server, SharedError> {
    let mut url = url.clone();
    if let Some(p) = typed() {
        url.config.password(p);
    }
    match Server::connect(&url) {
        Err(e) if asks_password(&e) => match ask(&url.shown, &url.user()) {
            Some(p) => {
                url.config.password(p);
                Server::connect(&url)
            }
            None => Err(e),
        },
        other => other,
    }
}
