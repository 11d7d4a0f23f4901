//! The small round buttons of the field's toolbar.

use yew::prelude::*;

use crate::icon::Icon;

#[derive(Properties, PartialEq)]
pub struct ToolButtonProps {
    /// The icon; a `label` replaces it (the zoom button shows the zoom).
    #[prop_or_default]
    pub icon: Option<Icon>,
    #[prop_or_default]
    pub label: Option<AttrValue>,
    pub title: AttrValue,
    pub testid: AttrValue,
    pub onclick: Callback<()>,
}

/// A chip-shaped button with an icon or a short label.
#[function_component]
pub fn ToolButton(props: &ToolButtonProps) -> Html {
    let onclick = props.onclick.reform(|_: MouseEvent| ());
    let content = match (&props.label, props.icon) {
        (Some(label), _) => html! { { label.clone() } },
        (None, Some(icon)) => icon.html(),
        (None, None) => Html::default(),
    };
    html! {
        <button type="button" class="chip" title={props.title.clone()}
                data-testid={props.testid.clone()} {onclick}>{ content }</button>
    }
}

#[derive(Properties, PartialEq)]
pub struct ZoomProps {
    /// The zoom, e.g. `100%`, on the button that fits the field again.
    pub label: AttrValue,
    /// Zoom steps: `1` in, `-1` out, `0` fit.
    pub on_zoom: Callback<i32>,
}

/// Zoom out, fit (showing the zoom) and zoom in.
#[function_component]
pub fn ZoomControls(props: &ZoomProps) -> Html {
    let zoom = |steps: i32| props.on_zoom.reform(move |()| steps);
    html! {
        <div class="soccer-zoom" role="group" aria-label="Zoom">
            <ToolButton icon={Icon::ZoomOut} title="Zoom out" testid="zoom-out" onclick={zoom(-1)} />
            <ToolButton label={props.label.clone()} title="Fit the field" testid="zoom-fit"
                        onclick={zoom(0)} />
            <ToolButton icon={Icon::ZoomIn} title="Zoom in" testid="zoom-in" onclick={zoom(1)} />
        </div>
    }
}
