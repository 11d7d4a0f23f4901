//! The trunk entry point: everything lives in the library so the browser tests can reach it.

fn main() {
    app::start();
}

/// `window.wasmBindings.WasmBotProbe`: a WebAssembly bot driven from JavaScript, bytes in and
/// out — what the league's players do with [`app::wasi::WasmBot`], for the e2e suite and the
/// curious (`new WasmBotProbe("bot.wasm", bytes, seed, (kind, bytes) => …)`).
#[cfg(target_arch = "wasm32")]
mod probe {
    use app::wasi::bot::{BotEvent, DEFAULT_BOT_MEMORY, WasmBot};
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    pub struct WasmBotProbe {
        bot: WasmBot,
    }

    #[wasm_bindgen]
    impl WasmBotProbe {
        /// Starts the bot; `listener(kind, payload)` hears `"started"`, `"bytes"` (a
        /// `Uint8Array`), `"refused"` (why) and `"ended"` (how).
        #[wasm_bindgen(constructor)]
        pub fn new(
            file_name: String,
            module: Vec<u8>,
            seed: f64,
            listener: js_sys::Function,
        ) -> Result<WasmBotProbe, JsValue> {
            let on_event = yew::Callback::from(move |event: BotEvent| {
                let (kind, payload): (&str, JsValue) = match event {
                    BotEvent::Started => ("started", JsValue::NULL),
                    BotEvent::Refused(why) => ("refused", why.into()),
                    BotEvent::Bytes(bytes) => {
                        ("bytes", js_sys::Uint8Array::from(bytes.as_slice()).into())
                    }
                    BotEvent::Ended { ended, .. } => ("ended", format!("{ended:?}").into()),
                };
                let _ = listener.call2(&JsValue::NULL, &kind.into(), &payload);
            });
            let bot = WasmBot::spawn(
                &file_name,
                &module,
                DEFAULT_BOT_MEMORY,
                seed as u64,
                on_event,
            )?;
            Ok(WasmBotProbe { bot })
        }

        /// Gives the bot `bytes` on its standard input.
        pub fn send(&self, bytes: &[u8]) -> Result<(), JsValue> {
            self.bot.send(bytes).map_err(|e| e.to_string().into())
        }

        /// Stops it.
        pub fn kill(&self) {
            self.bot.kill();
        }
    }
}
