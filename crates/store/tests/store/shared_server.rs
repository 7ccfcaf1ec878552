//! The throwaway PostgreSQL server the shared-ladder tests start (`rungs_testkit::postgres`).

use rungs_testkit::postgres::PgServer;

/// The server starts on its own socket, answers a query, and its roles log in with their
/// passwords only: what every shared-ladder test stands on.
#[test]
fn a_throwaway_server_starts_answers_and_asks_passwords() {
    let Some(server) = PgServer::start("harness") else {
        return;
    };
    let mut admin = server.admin("rungs");
    let row = admin.query_one("SELECT 6 * 7", &[]).expect("a query");
    assert_eq!(row.get::<_, i32>(0), 42);
    server.sql("rungs", "CREATE ROLE ann LOGIN PASSWORD 'ann-secret'");
    let login = |password: &str| {
        postgres::Config::new()
            .host_path(server.socket_dir())
            .user("ann")
            .password(password)
            .dbname("rungs")
            .connect(postgres::NoTls)
    };
    assert!(login("ann-secret").is_ok());
    let refused = login("wrong").err().expect("a wrong password is refused");
    assert_eq!(
        refused.code(),
        Some(&postgres::error::SqlState::INVALID_PASSWORD)
    );
}
