//! The room's protocol (docs/ROOM.md) over real sockets: bad messages get a clear error and the
//! server goes on; only the presenter key sets the question; one vote per voter per question,
//! kept across a reconnect; the reveal closes voting; the voter page's files and the QR code.

mod common;

use common::*;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn bad_messages_are_named_and_the_socket_goes_on() {
    let s = start().await;
    let mut stage = stage(&s).await;
    ask(&mut stage, question(2, 3)).await;
    let (mut phone, first) = voter(&s, "phone-bad-0001").await;
    assert_eq!(first["type"], "question");

    let cases: Vec<(String, &str)> = vec![
        ("not json".into(), "message: not JSON (expected ident at line 1 column 2)"),
        ("x".repeat(5000), "message: 5000 bytes is over the limit of 4096 bytes"),
        (r#"{"voter":"x"}"#.into(), "message.type: missing; every message names its type"),
        (r#"{"type":"shout"}"#.into(), "shout: unknown variant `shout`, expected `hello` or `vote`"),
        (r#"{"type":"vote","lesson":"clocks","step":2}"#.into(), "vote: missing field `choice`"),
        (r#"{"type":"vote","lesson":"clocks","step":2,"choice":-1}"#.into(), "vote: invalid value: integer `-1`, expected usize"),
        (r#"{"type":"vote","lesson":"clocks","step":2,"choice":7}"#.into(), "vote.choice: 7 is not a choice of this question (0 to 2)"),
        (r#"{"type":"hello","voter":"no spaces allowed"}"#.into(), "hello.voter: give 8 to 64 characters of A-Z, a-z, 0-9, - and _"),
    ];
    for (text, error) in cases {
        send_text(&mut phone, text).await;
        assert_eq!(recv(&mut phone).await, json!({"type": "error", "error": error}));
    }
    futures_util::SinkExt::send(&mut phone, Message::Binary(vec![1, 2, 3].into())).await.unwrap();
    assert_eq!(recv(&mut phone).await["error"], "message: binary frames are not part of the protocol; send JSON text");

    // The same socket still votes, and the stage's socket still takes questions.
    send(&mut phone, json!({"type": "vote", "lesson": "clocks", "step": 2, "choice": 1})).await;
    let voted = recv(&mut phone).await;
    assert_eq!(voted["type"], "voted");
    assert_eq!(counts_from(&mut stage, &voted["seq"]).await["counts"], json!([0, 1, 0]));

    let mut with_answer = question(2, 3);
    with_answer["answer"] = json!(1);
    send(&mut stage, with_answer).await;
    let e = recv_type(&mut stage, "error").await;
    assert!(e["error"].as_str().unwrap().starts_with("question: unknown field `answer`"), "{e}");
    send(&mut stage, question(2, 9)).await;
    assert_eq!(recv_type(&mut stage, "error").await["error"], "question.choices: give 2 to 8 choices, got 9");
}

#[tokio::test]
async fn a_vote_before_hello_is_refused() {
    let s = start().await;
    let mut phone = connect(&s.url("/room/voter")).await;
    send(&mut phone, json!({"type": "vote", "lesson": "clocks", "step": 2, "choice": 0})).await;
    assert_eq!(recv(&mut phone).await["error"], "vote: say hello with your voter id first");
}

#[tokio::test]
async fn only_the_presenter_key_opens_the_stage() {
    let s = start().await;
    for path in ["/room/stage", "/room/stage?key=guess", "/room/stage?key=0123456789abcdef0123456789abcdee"] {
        let refused = tokio_tungstenite::connect_async(s.url(path)).await.expect_err("refused");
        assert!(refused.to_string().contains("403"), "{path}: {refused}");
    }
    let mut stage = stage(&s).await;
    ask(&mut stage, question(2, 3)).await;
    let (mut phone, _) = voter(&s, "phone-key-0001").await;
    // A phone that tries to set the question hears why it may not, and nothing changes.
    for kind in ["question", "idle"] {
        let mut q = question(5, 2);
        q["type"] = json!(kind);
        send(&mut phone, q).await;
        assert_eq!(recv(&mut phone).await["error"], format!("{kind}: only the stage, with the presenter key, may set the question"));
    }
    let (_, other) = voter(&s, "phone-key-0002").await;
    assert_eq!((other["lesson"].clone(), other["step"].clone(), other["open"].clone()), (json!("clocks"), json!(2), json!(true)));
}

#[tokio::test]
async fn one_vote_per_voter_moved_not_added_and_closed_at_the_reveal() {
    let s = start().await;
    let mut stage = stage(&s).await;
    ask(&mut stage, question(2, 3)).await;
    let (mut a, _) = voter(&s, "phone-one-0001").await;
    let (mut b, _) = voter(&s, "phone-one-0002").await;
    for choice in [0, 0, 2] {
        send(&mut a, json!({"type": "vote", "lesson": "clocks", "step": 2, "choice": choice})).await;
        assert_eq!(recv(&mut a).await["choice"], choice);
    }
    send(&mut b, json!({"type": "vote", "lesson": "clocks", "step": 2, "choice": 2})).await;
    let voted = recv(&mut b).await;
    let c = counts_from(&mut stage, &voted["seq"]).await;
    assert_eq!((c["counts"].clone(), c["voters"].clone()), (json!([0, 0, 2]), json!(2)));

    // A stale question is refused; the reveal closes voting, and each phone hears it.
    send(&mut b, json!({"type": "vote", "lesson": "clocks", "step": 1, "choice": 0})).await;
    assert_eq!(recv(&mut b).await["error"], "vote: that question (lesson clocks, step 1) is no longer on screen");
    let mut revealed = question(2, 3);
    revealed["revealed"] = json!(true);
    ask(&mut stage, revealed).await;
    let seen = recv(&mut a).await;
    assert_eq!((seen["open"].clone(), seen["yours"].clone()), (json!(false), json!(2)));
    send(&mut a, json!({"type": "vote", "lesson": "clocks", "step": 2, "choice": 1})).await;
    assert_eq!(recv_type(&mut a, "error").await["error"], "vote: voting on this question closed at the reveal");
    assert!(!seen.as_object().unwrap().contains_key("answer"), "a phone never hears the answer: {seen}");
}

#[tokio::test]
async fn a_voter_who_reconnects_keeps_one_vote() {
    let s = start().await;
    let mut stage = stage(&s).await;
    ask(&mut stage, question(4, 2)).await;
    let (mut phone, _) = voter(&s, "phone-back-0001").await;
    send(&mut phone, json!({"type": "vote", "lesson": "clocks", "step": 4, "choice": 0})).await;
    recv(&mut phone).await;
    drop(phone);
    let (mut again, first) = voter(&s, "phone-back-0001").await;
    assert_eq!(first["yours"], 0, "the phone hears its vote back: {first}");
    send(&mut again, json!({"type": "vote", "lesson": "clocks", "step": 4, "choice": 1})).await;
    let voted = recv(&mut again).await;
    let c = counts_from(&mut stage, &voted["seq"]).await;
    assert_eq!(c["counts"], json!([0, 1]), "moved, not added: {c}");

    // Going to another step and back finds the room's votes where they were.
    send(&mut stage, question(5, 3)).await;
    send(&mut stage, question(4, 2)).await;
    loop {
        let c = recv_type(&mut stage, "counts").await;
        if c["step"] == 4 {
            assert_eq!(c["counts"], json!([0, 1]));
            break;
        }
    }
}

#[tokio::test]
async fn the_voter_page_is_plain_files_under_a_strict_policy() {
    let s = start().await;
    let get = |path: &str| {
        let addr = s.addr;
        let path = path.to_string();
        async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let mut c = tokio::net::TcpStream::connect(addr).await.unwrap();
            c.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).await.unwrap();
            let mut out = String::new();
            c.read_to_string(&mut out).await.unwrap();
            out
        }
    };
    let page = get("/v").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    let csp = page.lines().find(|l| l.to_ascii_lowercase().starts_with("content-security-policy:")).expect("a policy");
    assert!(csp.contains("script-src 'self'") && csp.contains("default-src 'none'") && !csp.contains("unsafe"), "{csp}");
    assert!(
        page.contains(r#"<script src="/v.js" defer></script>"#) && !page.contains("<script>") && !page.contains("<style"),
        "no inline code"
    );
    let body = page.split("\r\n\r\n").nth(1).unwrap();
    assert!(!body.contains("http://") && !body.contains("https://"), "no external request");
    assert!(get("/v.js").await.contains("/room/voter"));
    let qr = get("/room/qr.svg").await;
    assert!(qr.contains("image/svg+xml") && qr.contains("<svg"), "{qr}");
    assert!(get("/?room=x").await.contains("<title>app</title>"), "the app is served");
}
