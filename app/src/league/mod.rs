//! The Paper Soccer league in the browser: the session that decides what runs ([`session`],
//! browser-free), the tables that run one game each ([`table`]), the boards and files the
//! players are made of ([`roster`]), what is kept across a reload ([`storage`]) and the
//! progress and result tables ([`view`]); the form and its changes ([`form`]) and the page's
//! side of a running league ([`running`]). The league's rules are `engine::soccer::league`'s;
//! the page is `pages::league`.

pub mod form;
pub mod roster;
pub mod running;
pub mod session;
pub mod storage;
pub mod table;
pub mod view;
