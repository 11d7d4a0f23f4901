//! `#/soccer`: a Paper Soccer field of any legal size, drawn from the engine's geometry.

use engine::soccer::Side;
use engine::soccer::field::{Field, FieldError};
use engine::soccer::game::Game;
use web_sys::{HtmlCanvasElement, HtmlInputElement};
use yew::prelude::*;

use crate::canvas::{Surface, annotate, use_viewport};
use crate::draw::soccer::{Scene, paint};

/// The size the page opens with (the contest's usual field).
const DEFAULT: (u8, u8) = (8, 10);

/// Why the size typed in the form gives no field.
#[derive(Clone, Debug, PartialEq, Eq)]
enum SizeError {
    /// Not a whole number that fits a byte (the protocol sends each side as one byte).
    NotAByte { side: &'static str, text: String },
    /// A byte the rules refuse.
    Field(FieldError),
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizeError::NotAByte { side, text } => {
                write!(f, "{side} “{text}” is not a whole number from 0 to 255")
            }
            SizeError::Field(err) => write!(f, "{err}"),
        }
    }
}

fn parse_size(width: &str, length: &str) -> Result<Field, SizeError> {
    let byte = |side: &'static str, text: &str| {
        text.trim().parse::<u8>().map_err(|_| SizeError::NotAByte {
            side,
            text: text.trim().to_owned(),
        })
    };
    Field::new(byte("width", width)?, byte("length", length)?).map_err(SizeError::Field)
}

#[function_component]
pub fn Soccer() -> Html {
    let width = use_state(|| DEFAULT.0.to_string());
    let length = use_state(|| DEFAULT.1.to_string());
    let field = use_state(|| Field::new(DEFAULT.0, DEFAULT.1).expect("8×10 is a legal field"));
    let error = parse_size(&width, &length).err();

    let on_input = |text: UseStateHandle<String>, other: UseStateHandle<String>, is_width: bool| {
        let field = field.clone();
        Callback::from(move |event: InputEvent| {
            let value = event.target_unchecked_into::<HtmlInputElement>().value();
            let parsed = match is_width {
                true => parse_size(&value, &other),
                false => parse_size(&other, &value),
            };
            if let Ok(new_field) = parsed {
                field.set(new_field);
            }
            text.set(value);
        })
    };
    let on_width = on_input(width.clone(), length.clone(), true);
    let on_length = on_input(length.clone(), width.clone(), false);

    let canvas_ref = use_node_ref();
    let viewport = use_viewport();
    {
        let canvas_ref = canvas_ref.clone();
        use_effect_with((*field, viewport), move |(field, _)| {
            draw(&canvas_ref, *field);
        });
    }

    html! {
        <div class="page play">
            <aside class="panel">
                <h1>{ "Paper Soccer" }</h1>
                <p>
                    { "Red defends the top goal, blue the bottom one. The ball starts on the \
                       centre point; every step draws a line, and landing on a point that a \
                       line already touches means stepping again." }
                </p>
                <div class="size-form">
                    <label>
                        { "Width" }
                        <input type="number" min="2" max="254" step="2" inputmode="numeric"
                               data-testid="width" value={(*width).clone()} oninput={on_width} />
                    </label>
                    <label>
                        { "Length" }
                        <input type="number" min="2" max="254" step="2" inputmode="numeric"
                               data-testid="length" value={(*length).clone()} oninput={on_length} />
                    </label>
                </div>
                if let Some(error) = error {
                    <p class="error" role="alert" data-testid="size-error">{ error.to_string() }</p>
                } else {
                    <p class="hint">{ format!("A {} field: {} points.", *field, points(*field)) }</p>
                }
            </aside>
            <section class="stage">
                <canvas ref={canvas_ref} class="board-canvas" data-testid="soccer-canvas"
                        aria-label={format!("Paper Soccer field {}", *field)} role="img" />
            </section>
        </div>
    }
}

/// Field points plus the six goal points.
fn points(field: Field) -> u32 {
    (u32::from(field.width()) + 1) * (u32::from(field.length()) + 1) + 6
}

fn draw(canvas_ref: &NodeRef, field: Field) {
    let Some(canvas) = canvas_ref.cast::<HtmlCanvasElement>() else {
        return;
    };
    let Some(surface) = Surface::prepare(&canvas) else {
        return;
    };
    let game = Game::new(field, Side::Red);
    let predrawn = field.predrawn_segments();
    let drawn = game.step_segments();
    let scene = Scene {
        width: field.width(),
        length: field.length(),
        predrawn: &predrawn,
        drawn: &drawn,
        ball: game.ball(),
    };
    let view = paint(&surface, &scene);
    let (x0, y0) = view.point(0, 0);
    let (bx, by) = view.point(game.ball().x, game.ball().y);
    annotate(&canvas, "field", field);
    annotate(&canvas, "square", view.square());
    annotate(&canvas, "origin", format!("{x0},{y0}"));
    annotate(&canvas, "ball", format!("{bx},{by}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked_by_the_engine() {
        assert_eq!(
            parse_size("8", "10"),
            Field::new(8, 10).map_err(SizeError::Field)
        );
        assert_eq!(
            parse_size(" 254 ", "2"),
            Field::new(254, 2).map_err(SizeError::Field)
        );
        assert_eq!(
            parse_size("7", "10"),
            Err(SizeError::Field(FieldError::Width(7)))
        );
        assert_eq!(
            parse_size("8", "0"),
            Err(SizeError::Field(FieldError::Length(0)))
        );
    }

    #[test]
    fn text_that_is_not_a_byte_is_named() {
        let err = parse_size("300", "10").unwrap_err();
        assert_eq!(
            err,
            SizeError::NotAByte {
                side: "width",
                text: "300".into()
            }
        );
        assert_eq!(
            err.to_string(),
            "width “300” is not a whole number from 0 to 255"
        );
        assert!(matches!(
            parse_size("8", ""),
            Err(SizeError::NotAByte { side: "length", .. })
        ));
    }

    #[test]
    fn counts_points_with_goals() {
        assert_eq!(points(Field::new(8, 10).unwrap()), 9 * 11 + 6);
    }
}
