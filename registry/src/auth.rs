//! Credentials sent with every request.

use std::fmt;
use std::sync::Arc;

use base64::Engine;

use crate::error::{RegistryError, Result};

/// Gives bearer tokens that expire, such as OAuth access tokens: implement it over your
/// identity provider. It is asked before every request, so it should hand out a cached
/// token until that is about to expire.
pub trait TokenProvider: Send + Sync {
    /// The current token.
    fn token(&self) -> std::result::Result<String, String>;

    /// Called when the registry answered 401 to the current token: forget it, so the next
    /// [`Self::token`] fetches a fresh one. The request is then sent once more.
    fn invalidate(&self) {}
}

/// How the client authenticates.
#[derive(Clone, Default)]
pub enum Auth {
    /// No credentials.
    #[default]
    None,
    /// HTTP basic authentication (`key:secret` of Confluent Cloud API keys).
    Basic {
        /// The user name or API key.
        user: String,
        /// The password or API secret.
        password: String,
    },
    /// A static bearer token.
    Bearer(String),
    /// Bearer tokens from a provider that refreshes them.
    Provider(Arc<dyn TokenProvider>),
}

impl fmt::Debug for Auth {
    /// Never prints secrets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Auth::None => f.write_str("None"),
            Auth::Basic { user, .. } => write!(f, "Basic({user}:***)"),
            Auth::Bearer(_) => f.write_str("Bearer(***)"),
            Auth::Provider(_) => f.write_str("Provider"),
        }
    }
}

impl Auth {
    /// Basic authentication from `user:password` (the password may contain `:`).
    pub fn basic_from(user_info: &str) -> Result<Self> {
        let (user, password) = user_info.split_once(':').ok_or_else(|| {
            RegistryError::Config("basic credentials must be `user:password`".to_owned())
        })?;
        Ok(Auth::Basic {
            user: user.to_owned(),
            password: password.to_owned(),
        })
    }

    /// The `Authorization` header value, if any.
    pub(crate) fn header(&self) -> Result<Option<String>> {
        Ok(match self {
            Auth::None => None,
            Auth::Basic { user, password } => {
                let encoded =
                    base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
                Some(format!("Basic {encoded}"))
            }
            Auth::Bearer(token) => Some(format!("Bearer {token}")),
            Auth::Provider(provider) => {
                let token = provider.token().map_err(RegistryError::Token)?;
                Some(format!("Bearer {token}"))
            }
        })
    }

    /// Tells a token provider its token was refused; whether the request is worth resending.
    pub(crate) fn refused(&self) -> bool {
        match self {
            Auth::Provider(provider) => {
                provider.invalidate();
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_header_is_base64_of_user_and_password() {
        let auth = Auth::basic_from("key:se:cret").unwrap();
        assert_eq!(auth.header().unwrap().unwrap(), "Basic a2V5OnNlOmNyZXQ=");
        assert!(Auth::basic_from("nocolon").is_err());
        assert_eq!(format!("{auth:?}"), "Basic(key:***)");
    }
}
