//! The browser UI (Yew). Renders a pure function of (trace, cursor); see DESIGN.md.
