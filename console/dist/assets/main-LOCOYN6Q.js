var re,g,Ne,$t,L,Te,De,Ie,pe,Z,K,He,he,de,me,yt,te={},ne=[],gt=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,se=Array.isArray;function I(e,t){for(var n in t)e[n]=t[n];return e}function fe(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function ie(e,t,n){var r,s,o,l={};for(o in t)o=="key"?r=t[o]:o=="ref"?s=t[o]:l[o]=t[o];if(arguments.length>2&&(l.children=arguments.length>3?re.call(arguments,2):n),typeof e=="function"&&e.defaultProps!=null)for(o in e.defaultProps)l[o]===void 0&&(l[o]=e.defaultProps[o]);return ee(e,l,r,s,null)}function ee(e,t,n,r,s){var o={type:e,props:t,key:n,ref:r,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:s??++Ne,__i:-1,__u:0};return s==null&&g.vnode!=null&&g.vnode(o),o}function ae(e){return e.children}function V(e,t){this.props=e,this.context=t}function F(e,t){if(t==null)return e.__?F(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type=="function"?F(e):null}function vt(e){if(e.__P&&e.__d){var t=e.__v,n=t.__e,r=[],s=[],o=I({},t);o.__v=t.__v+1,g.vnode&&g.vnode(o),be(e.__P,o,t,e.__n,e.__P.namespaceURI,32&t.__u?[n]:null,r,n??F(t),!!(32&t.__u),s),o.__v=t.__v,o.__.__k[o.__i]=o,qe(r,o,s),t.__e=t.__=null,o.__e!=n&&Le(o)}}function Le(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),Le(e)}function Re(e){(!e.__d&&(e.__d=!0)&&L.push(e)&&!oe.__r++||Te!=g.debounceRendering)&&((Te=g.debounceRendering)||De)(oe)}function oe(){try{for(var e,t=1;L.length;)L.length>t&&L.sort(Ie),e=L.shift(),t=L.length,vt(e)}finally{L.length=oe.__r=0}}function Me(e,t,n,r,s,o,l,c,u,a,_){var p,i,m,b,A,h,w=r&&r.__k||ne,y=t.length;for(u=wt(n,t,w,u,y),p=0;p<y;p++)(m=n.__k[p])!=null&&(i=m.__i!=-1&&w[m.__i]||te,m.__i=p,h=be(e,m,i,s,o,l,c,u,a,_),b=m.__e,m.ref&&i.ref!=m.ref&&(i.ref&&$e(i.ref,null,m),_.push(m.ref,m.__c||b,m)),A==null&&b!=null&&(A=b),4&m.__u?(u=We(m,u,e),i.__e&&(i.__e=null)):typeof m.type=="function"&&h!==void 0?u=h:b&&(u=b.nextSibling),m.__u&=-7);return n.__e=A,u}function wt(e,t,n,r,s){var o,l,c,u,a,_=n.length,p=_,i=0;for(e.__k=new Array(s),o=0;o<s;o++)(l=t[o])!=null&&typeof l!="boolean"&&typeof l!="function"?(typeof l=="string"||typeof l=="number"||typeof l=="bigint"||l.constructor==String?l=e.__k[o]=ee(null,l,null,null,null):se(l)?l=e.__k[o]=ee(ae,{children:l},null,null,null):l.constructor===void 0&&l.__b>0?l=e.__k[o]=ee(l.type,l.props,l.key,l.ref?l.ref:null,l.__v):e.__k[o]=l,u=o+i,l.__=e,l.__b=e.__b+1,c=null,(a=l.__i=kt(l,n,u,p))!=-1&&(p--,(c=n[a])&&(c.__u|=2)),c==null||c.__v==null?(a==-1&&(s>_?i--:s<_&&i++),typeof l.type!="function"&&(l.__u|=4)):a!=u&&(a==u-1?i--:a==u+1?i++:(a>u?i--:i++,l.__u|=4))):e.__k[o]=null;if(p)for(o=0;o<_;o++)(c=n[o])!=null&&(2&c.__u)==0&&(c.__e==r&&(r=F(c)),je(c,c));return r}function We(e,t,n){var r,s;if(typeof e.type=="function"){for(r=e.__k,s=0;r&&s<r.length;s++)r[s]&&(r[s].__=e,t=We(r[s],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=F(e)),t=n.insertBefore(e.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function kt(e,t,n,r){var s,o,l,c=e.key,u=e.type,a=t[n],_=a!=null&&(2&a.__u)==0;if(a===null&&c==null||_&&c==a.key&&u==a.type)return n;if(r>(_?1:0)){for(s=n-1,o=n+1;s>=0||o<t.length;)if((a=t[l=s>=0?s--:o++])!=null&&(2&a.__u)==0&&c==a.key&&u==a.type)return l}return-1}function Ae(e,t,n){t[0]=="-"?e.setProperty(t,n??""):e[t]=n==null?"":typeof n!="number"||gt.test(t)?n:n+"px"}function X(e,t,n,r,s){var o,l;e:if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof r=="string"&&(e.style.cssText=r=""),r)for(t in r)n&&t in n||Ae(e.style,t,"");if(n)for(t in n)r&&n[t]==r[t]||Ae(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")o=t!=(t=t.replace(He,"$1")),l=t.toLowerCase(),t=l in e||t=="onFocusOut"||t=="onFocusIn"?l.slice(2):t.slice(2),e.l||(e.l={}),e.l[t+o]=n,n?r?n[K]=r[K]:(n[K]=he,e.addEventListener(t,o?me:de,o)):e.removeEventListener(t,o?me:de,o);else{if(s=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{e[t]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n))}}function Ue(e){return function(t){if(this.l){var n=this.l[t.type+e];if(t[Z]==null)t[Z]=he++;else if(t[Z]<n[K])return;return n(g.event?g.event(t):t)}}}function be(e,t,n,r,s,o,l,c,u,a){var _,p,i,m,b,A,h,w,y,N,G,W,B,xe,Q,ue,D=t.type;if(t.constructor!==void 0)return null;128&n.__u&&(u=!!(32&n.__u),o=[c=t.__e=n.__e]),(_=g.__b)&&_(t);e:if(typeof D=="function"){p=l.length;try{if(y=t.props,N=D.prototype&&D.prototype.render,G=(_=D.contextType)&&r[_.__c],W=_?G?G.props.value:_.__:r,n.__c?w=(i=t.__c=n.__c).__=i.__E:(N?t.__c=i=new D(y,W):(t.__c=i=new V(y,W),i.constructor=D,i.render=Pt),G&&G.sub(i),i.state||(i.state={}),i.__n=r,m=i.__d=!0,i.__h=[],i._sb=[]),N&&i.__s==null&&(i.__s=i.state),N&&D.getDerivedStateFromProps!=null&&(i.__s==i.state&&(i.__s=I({},i.__s)),I(i.__s,D.getDerivedStateFromProps(y,i.__s))),b=i.props,A=i.state,i.__v=t,m)N&&D.getDerivedStateFromProps==null&&i.componentWillMount!=null&&i.componentWillMount(),N&&i.componentDidMount!=null&&i.__h.push(i.componentDidMount);else{if(N&&D.getDerivedStateFromProps==null&&y!==b&&i.componentWillReceiveProps!=null&&i.componentWillReceiveProps(y,W),t.__v==n.__v||!i.__e&&i.shouldComponentUpdate!=null&&i.shouldComponentUpdate(y,i.__s,W)===!1){t.__v!=n.__v&&(i.props=y,i.state=i.__s,i.__d=!1),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(O){O&&(O.__=t)}),ne.push.apply(i.__h,i._sb),i._sb=[],i.__h.length&&l.push(i),c=F(n);break e}i.componentWillUpdate!=null&&i.componentWillUpdate(y,i.__s,W),N&&i.componentDidUpdate!=null&&i.__h.push(function(){i.componentDidUpdate(b,A,h)})}if(i.context=W,i.props=y,i.__P=e,i.__e=!1,B=g.__r,xe=0,N)i.state=i.__s,i.__d=!1,B&&B(t),_=i.render(i.props,i.state,i.context),ne.push.apply(i.__h,i._sb),i._sb=[];else do i.__d=!1,B&&B(t),_=i.render(i.props,i.state,i.context),i.state=i.__s;while(i.__d&&++xe<25);i.state=i.__s,i.getChildContext!=null&&(r=I(I({},r),i.getChildContext())),N&&!m&&i.getSnapshotBeforeUpdate!=null&&(h=i.getSnapshotBeforeUpdate(b,A)),Q=_!=null&&_.type===ae&&_.key==null?Oe(_.props.children):_,c=Me(e,se(Q)?Q:[Q],t,n,r,s,o,l,c,u,a),i.base=t.__e,t.__u&=-161,i.__h.length&&l.push(i),w&&(i.__E=i.__=null)}catch(O){if(l.length=p,t.__v=null,u||o!=null){if(O.then){for(t.__u|=u?160:128;c&&c.nodeType==8&&c.nextSibling;)c=c.nextSibling;o!=null&&(o[o.indexOf(c)]=null),t.__e=c}else if(o!=null)for(ue=o.length;ue--;)fe(o[ue])}else t.__e=n.__e;t.__k==null&&(t.__k=n.__k||[]),O.then||Fe(t),g.__e(O,t,n)}}else o==null&&t.__v==n.__v?(t.__k=n.__k,t.__e=n.__e):c=t.__e=St(n.__e,t,n,r,s,o,l,u,a);return(_=g.diffed)&&_(t),128&t.__u?void 0:c}function Fe(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(Fe))}function qe(e,t,n){for(var r=0;r<n.length;r++)$e(n[r],n[++r],n[++r]);g.__c&&g.__c(t,e),e.some(function(s){try{e=s.__h,s.__h=[],e.some(function(o){o.call(s)})}catch(o){g.__e(o,s.__v)}})}function Oe(e){return typeof e!="object"||e==null||e.__b>0?e:se(e)?e.map(Oe):e.constructor!==void 0?null:I({},e)}function St(e,t,n,r,s,o,l,c,u){var a,_,p,i,m,b,A,h=n.props||te,w=t.props,y=t.type;if(y=="svg"?s="http://www.w3.org/2000/svg":y=="math"?s="http://www.w3.org/1998/Math/MathML":s||(s="http://www.w3.org/1999/xhtml"),o!=null){for(a=0;a<o.length;a++)if((m=o[a])&&"setAttribute"in m==!!y&&(y?m.localName==y:m.nodeType==3)){e=m,o[a]=null;break}}if(e==null){if(y==null)return document.createTextNode(w);e=document.createElementNS(s,y,w.is&&w),c&&(g.__m&&g.__m(t,o),c=!1),o=null}if(y==null)h===w||c&&e.data==w||(e.data=w);else{if(o=y=="textarea"&&w.defaultValue!=null?null:o&&re.call(e.childNodes),!c&&o!=null)for(h={},a=0;a<e.attributes.length;a++)h[(m=e.attributes[a]).name]=m.value;for(a in h)m=h[a],a=="dangerouslySetInnerHTML"?p=m:a=="children"||a in w||a=="value"&&"defaultValue"in w||a=="checked"&&"defaultChecked"in w||X(e,a,null,m,s);for(a in w)m=w[a],a=="children"?i=m:a=="dangerouslySetInnerHTML"?_=m:a=="value"?b=m:a=="checked"?A=m:c&&typeof m!="function"||h[a]===m||X(e,a,m,h[a],s);if(_)c||p&&(_.__html==p.__html||_.__html==e.innerHTML)||(e.innerHTML=_.__html),t.__k=[];else if(p&&(e.innerHTML=""),Me(t.type=="template"?e.content:e,se(i)?i:[i],t,n,r,y=="foreignObject"?"http://www.w3.org/1999/xhtml":s,o,l,o?o[0]:n.__k&&F(n,0),c,u),o!=null)for(a=o.length;a--;)fe(o[a]);c&&y!="textarea"||(a="value",y=="progress"&&b==null?e.removeAttribute("value"):b!=null&&(b!==e[a]||y=="progress"&&!b||y=="option"&&b!=h[a])&&X(e,a,b,h[a],s),a="checked",A!=null&&A!=e[a]&&X(e,a,A,h[a],s))}return e}function $e(e,t,n){try{if(typeof e=="function"){var r=typeof e.__u=="function";r&&e.__u(),r&&t==null||(e.__u=e(t))}else e.current=t}catch(s){g.__e(s,n)}}function je(e,t,n){var r,s;if(g.unmount&&g.unmount(e),(r=e.ref)&&(r.current&&r.current!=e.__e||$e(r,null,t)),(r=e.__c)!=null){if(r.componentWillUnmount)try{r.componentWillUnmount()}catch(o){g.__e(o,t)}r.base=r.__P=r.__n=null}if(r=e.__k)for(s=0;s<r.length;s++)r[s]&&je(r[s],t,n||typeof e.type!="function");n||fe(e.__e),e.__c=e.__=e.__e=void 0}function Pt(e,t,n){return this.constructor(e,n)}function ye(e,t,n){var r,s,o,l;t==document&&(t=document.documentElement),g.__&&g.__(e,t),s=(r=typeof n=="function")?null:n&&n.__k||t.__k,o=[],l=[],be(t,e=(!r&&n||t).__k=ie(ae,null,[e]),s||te,te,t.namespaceURI,!r&&n?[n]:s?null:t.firstChild?re.call(t.childNodes):null,o,!r&&n?n:s?s.__e:t.firstChild,r,l),qe(o,e,l),e.props.children=null}re=ne.slice,g={__e:function(e,t,n,r){for(var s,o,l;t=t.__;)if((s=t.__c)&&!s.__)try{if((o=s.constructor)&&o.getDerivedStateFromError!=null&&(s.setState(o.getDerivedStateFromError(e)),l=s.__d),s.componentDidCatch!=null&&(s.componentDidCatch(e,r||{}),l=s.__d),l)return s.__E=s}catch(c){e=c}throw e}},Ne=0,$t=function(e){return e!=null&&e.constructor===void 0},V.prototype.setState=function(e,t){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=I({},this.state),typeof e=="function"&&(e=e(I({},n),this.props)),e&&I(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),Re(this))},V.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),Re(this))},V.prototype.render=ae,L=[],De=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,Ie=function(e,t){return e.__v.__b-t.__v.__b},oe.__r=0,pe=Math.random().toString(8),Z="__d"+pe,K="__a"+pe,He=/(PointerCapture)$|Capture$/i,he=0,de=Ue(!1),me=Ue(!0),yt=0;var ge="rolegate.console.key",Et=location.pathname.replace(/console\/.*$/,""),ve=()=>sessionStorage.getItem(ge)||"",Ge=e=>sessionStorage.setItem(ge,e),we=()=>sessionStorage.removeItem(ge),le=class extends Error{constructor(t,n){super(n),this.status=t}},Be=()=>{},Ke=e=>{Be=e},$=encodeURIComponent;async function T(e,t,{query:n,body:r,key:s}={}){let o=new URL(Et+"api/"+t,location.origin);for(let[_,p]of Object.entries(n||{}))p!=null&&p!==""&&o.searchParams.set(_,String(p));let l={Authorization:"Bearer "+(s??ve()),Accept:"application/json"},c={method:e,headers:l,credentials:"omit",cache:"no-store",referrerPolicy:"no-referrer"};r!==void 0&&(l["Content-Type"]="application/json",c.body=JSON.stringify(r));let u;try{u=await fetch(o,c)}catch(_){throw new le(0,"The server cannot be reached ("+_.message+")")}let a=null;try{a=await u.json()}catch{}if(!u.ok||!a||a.success!==!0){let _=a&&a.message?a.message:u.status+" "+u.statusText;throw a&&a.error&&a.error!==a.message&&(_+=": "+a.error),u.status===401&&s===void 0&&Be(_),new le(u.status,_)}return a.data}var v=(e,t)=>T("GET",e,{query:t});var ze=function(e,t,n,r){var s;t[0]=0;for(var o=1;o<t.length;o++){var l=t[o++],c=t[o]?(t[0]|=l?1:2,n[t[o++]]):t[++o];l===3?r[0]=c:l===4?r[1]=Object.assign(r[1]||{},c):l===5?(r[1]=r[1]||{})[t[++o]]=c:l===6?r[1][t[++o]]+=c+"":l?(s=e.apply(c,ze(e,c,n,["",null])),r.push(s),c[0]?t[0]|=2:(t[o-2]=0,t[o]=s)):r.push(c)}return r},Ve=new Map;function Ye(e){var t=Ve.get(this);return t||(t=new Map,Ve.set(this,t)),(t=ze(this,t.get(e)||(t.set(e,t=(function(n){for(var r,s,o=1,l="",c="",u=[0],a=function(i){o===1&&(i||(l=l.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,i,l):o===3&&(i||l)?(u.push(3,i,l),o=2):o===2&&l==="..."&&i?u.push(4,i,0):o===2&&l&&!i?u.push(5,0,!0,l):o>=5&&((l||!i&&o===5)&&(u.push(o,0,l,s),o=6),i&&(u.push(o,i,0,s),o=6)),l=""},_=0;_<n.length;_++){_&&(o===1&&a(),a(_));for(var p=0;p<n[_].length;p++)r=n[_][p],o===1?r==="<"?(a(),u=[u],o=3):l+=r:o===4?l==="--"&&r===">"?(o=1,l=""):l=r+l[0]:c?r===c?c="":l+=r:r==='"'||r==="'"?c=r:r===">"?(a(),o=1):o&&(r==="="?(o=5,s=l,l=""):r==="/"&&(o<5||n[_][p+1]===">")?(a(),o===3&&(u=u[0]),o=u,(u=u[0]).push(2,0,o),o=0):r===" "||r==="	"||r===`
`||r==="\r"?(a(),o=2):l+=r),o===3&&l==="!--"&&(o=4,u=u[0])}return a(),u})(e)),t),arguments,[])).length>1?t:t[0]}var d=Ye.bind(ie);var z,k,ke,Je,Y=0,rt=[],S=g,Qe=S.__b,Xe=S.__r,Ze=S.diffed,et=S.__c,tt=S.unmount,nt=S.__;function Pe(e,t){S.__h&&S.__h(k,e,Y||t),Y=0;var n=k.__H||(k.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function f(e){return Y=1,Ct(lt,e)}function Ct(e,t,n){var r=Pe(z++,2);if(r.t=e,!r.__c&&(r.__=[n?n(t):lt(void 0,t),function(c){var u=r.__N?r.__N[0]:r.__[0],a=r.t(u,c);u!==a&&(r.__N=[a,r.__[1]],r.__c.setState({}))}],r.__c=k,!k.__f)){var s=function(c,u,a){if(!r.__c.__H)return!0;var _=!1,p=r.__c.props!==c;if(r.__c.__H.__.some(function(m){if(m.__N){_=!0;var b=m.__[0];m.__=m.__N,m.__N=void 0,b!==m.__[0]&&(p=!0)}}),o){var i=o.call(this,c,u,a);return _?i||p:i}return!_||p};k.__f=!0;var o=k.shouldComponentUpdate,l=k.componentWillUpdate;k.componentWillUpdate=function(c,u,a){if(this.__e){var _=o;o=void 0,s(c,u,a),o=_}l&&l.call(this,c,u,a)},k.shouldComponentUpdate=s}return r.__N||r.__}function M(e,t){var n=Pe(z++,3);!S.__s&&at(n.__H,t)&&(n.__=e,n.u=t,k.__H.__h.push(n))}function J(e){return Y=5,st(function(){return{current:e}},[])}function st(e,t){var n=Pe(z++,7);return at(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function it(e,t){return Y=8,st(function(){return e},t)}function xt(){for(var e;e=rt.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(ce),t.__h.some(Se),t.__h=[]}catch(n){t.__h=[],S.__e(n,e.__v)}}}S.__b=function(e){k=null,Qe&&Qe(e)},S.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),nt&&nt(e,t)},S.__r=function(e){Xe&&Xe(e),z=0;var t=(k=e.__c).__H;t&&(ke===k?(t.__h=[],k.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(t.__h.some(ce),t.__h.some(Se),t.__h=[],z=0)),ke=k},S.diffed=function(e){Ze&&Ze(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(rt.push(t)!==1&&Je===S.requestAnimationFrame||((Je=S.requestAnimationFrame)||Tt)(xt)),t.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),ke=k=null},S.__c=function(e,t){t.some(function(n){try{n.__h.some(ce),n.__h=n.__h.filter(function(r){return!r.__||Se(r)})}catch(r){t.some(function(s){s.__h&&(s.__h=[])}),t=[],S.__e(r,n.__v)}}),et&&et(e,t)},S.unmount=function(e){tt&&tt(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(r){try{ce(r)}catch(s){t=s}}),n.__H=void 0,t&&S.__e(t,n.__v))};var ot=typeof requestAnimationFrame=="function";function Tt(e){var t,n=function(){clearTimeout(r),ot&&cancelAnimationFrame(t),setTimeout(e)},r=setTimeout(n,35);ot&&(t=requestAnimationFrame(n))}function ce(e){var t=k,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),k=t}function Se(e){var t=k;e.__c=e.__(),k=t}function at(e,t){return!e||e.length!==t.length||t.some(function(n,r){return n!==e[r]})}function lt(e,t){return typeof t=="function"?t(e):t}var E=50;function C(e,t,n){let[r,s]=f([void 0]),[o,l]=f({items:[],loading:!0,error:""}),[c,u]=f(0);M(()=>{s([void 0])},n);let a=r[r.length-1];M(()=>{let p=!0;return l(i=>({...i,loading:!0})),e(a).then(i=>p&&l({items:i||[],loading:!1,error:""}),i=>p&&l({items:[],loading:!1,error:i.message})),()=>{p=!1}},[a,c,...n]);let _=o.items;return{...o,page:r.length,hasNext:_.length>=E,hasPrev:r.length>1,next:()=>_.length&&s([...r,t(_[_.length-1])]),prev:()=>s(r.slice(0,-1)),reload:()=>u(p=>p+1)}}function Rt({p:e,label:t}){return!e.hasPrev&&!e.hasNext?null:d`<nav class="pager" aria-label=${t+" pages"}>
    <button type="button" onClick=${e.prev} disabled=${!e.hasPrev}>Previous page</button>
    <span>Page ${e.page}</span>
    <button type="button" onClick=${e.next} disabled=${!e.hasNext}>Next page</button>
  </nav>`}function U({text:e,id:t}){return e?d`<p class="error" role="alert" id=${t}>${e}</p>`:null}function P({id:e,label:t,value:n,onInput:r,required:s,placeholder:o,type:l,hint:c,list:u}){return d`<div class="field">
    <label for=${e}>${t}${s?"":d` <span class="opt">(optional)</span>`}</label>
    <input id=${e} name=${e} type=${l||"text"} value=${n} required=${s} placeholder=${o}
      list=${u} autocomplete="off" spellcheck=${!1} aria-describedby=${c?e+"-hint":void 0}
      onInput=${a=>r(a.currentTarget.value)} />
    ${c&&d`<small id=${e+"-hint"}>${c}</small>`}
  </div>`}function H(){let[e,t]=f(!1),[n,r]=f(""),s=it(async o=>{t(!0),r("");try{return await o()}catch(l){r(l.message);return}finally{t(!1)}},[]);return{busy:e,error:n,run:s,setError:r}}function R({p:e,label:t,empty:n,render:r,id:s}){return d`<div class="list" id=${s} aria-busy=${e.loading}>
    <${U} text=${e.error} />
    ${!e.loading&&!e.error&&e.items.length===0&&d`<p class="empty">${n}</p>`}
    ${e.items.length>0&&d`<ul aria-label=${t}>${e.items.map(r)}</ul>`}
    <${Rt} p=${e} label=${t} />
  </div>`}var x=(...e)=>"#/"+e.map(encodeURIComponent).join("/");function ct(e){let t=e.scope?"in scope \u201C"+e.scope+"\u201D":"globally",n=e.chain.length>1?", which inherits along "+e.chain.join(" \u2192 "):"";return"member of "+e.membership+" "+t+n+"; granted to "+e.granted_by}function _t({notify:e}){let t=C(_=>v("roles",{limit:E,after:_}),_=>_.role,[]),[n,r]=f(""),[s,o]=f(""),[l,c]=f(""),u=H();return d`
    <section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${_=>{_.preventDefault(),u.run(async()=>{await T("POST","role/"+$(n),{body:s?{description:s}:void 0}),e("Role "+n+" created."),r(""),o(""),t.reload()})}}>
        <${P} id="new-role" label="Role name" value=${n} onInput=${r} required />
        <${P} id="new-role-desc" label="Description" value=${s} onInput=${o} />
        <button type="submit" disabled=${u.busy}>Create role</button>
      </form>
      <${U} text=${u.error} id="new-role-error" />
    </section>
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${R} p=${t} label="Roles" id="roles-list" empty="No roles yet." render=${_=>d`
        <li key=${_.role} class="row">
          <a href=${x("role",_.role)}>${_.role}</a>
          <span class="desc">${_.description}</span>
          <button type="button" class="danger" onClick=${()=>c(_.role)}
            aria-label=${"Delete role "+_.role}>Delete</button>
        </li>`} />
    </section>
    ${l&&d`<${At} role=${l} onClose=${_=>{c(""),_&&(e(_),t.reload())}} />`}`}var q=100;function At({role:e,onClose:t}){let n=J(),[r,s]=f(null),o=H();M(()=>{let u=n.current;u.showModal();let a=()=>t("");return u.addEventListener("cancel",a),o.run(async()=>{let[_,p,i,m]=await Promise.all([v("members/"+$(e),{limit:q}),v("role_permissions/"+$(e),{limit:q}),v("role/"+$(e)+"/inherits",{limit:q}),v("role/"+$(e)+"/inherited_by",{limit:q})]);s({members:_.map(b=>b.user),perms:p.map(b=>b.name),parents:i.map(b=>b.role),children:m.map(b=>b.role)})}),()=>u.removeEventListener("cancel",a)},[e]);let l=()=>o.run(async()=>{let u=await T("DELETE","role/"+$(e)),a=r;t(u.deleted?"Role "+e+" deleted, with "+j(a.members,"membership")+" and "+j(a.perms,"permission")+".":"Role "+e+" was already gone.")}),c=u=>u.length===0?"none":u.join(", ")+(u.length>=q?" and more":"");return d`<dialog ref=${n} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${e}”?</h2>
    <${U} text=${o.error} />
    ${r?d`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${j(r.members,"global membership")}</strong>: ${c(r.members)}</li>
        <li><strong>${j(r.perms,"permission")}</strong>: ${c(r.perms)}</li>
        <li><strong>${j(r.parents,"parent link")}</strong> (it inherits from): ${c(r.parents)}</li>
        <li><strong>${j(r.children,"child link")}</strong> (roles inheriting from it lose what it grants): ${c(r.children)}</li>
        <li>its memberships in any scope</li>
      </ul>
      <p>Re-creating the role brings none of this back.</p></div>`:d`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${l} disabled=${!r||o.busy}>Delete ${e}</button>
      <button type="button" onClick=${()=>t("")}>Cancel</button>
    </div>
  </dialog>`}function j(e,t){return(e.length>=q?q+"+":String(e.length))+" "+t+(e.length===1?"":"s")}function ut({role:e,notify:t}){let[n,r]=f(0),s=o=>{t(o),r(l=>l+1)};return d`
    <p><a href="#/roles">← All roles</a></p>
    <div class="cols">
      <${Ut} role=${e} tick=${n} changed=${s} />
      <${Nt} role=${e} tick=${n} changed=${s} />
    </div>
    <${Dt} role=${e} tick=${n} />
    <${Ht} role=${e} tick=${n} />
    <${Lt} role=${e} tick=${n} changed=${s} />`}function Ee({id:e,label:t,button:n,add:r,extra:s}){let[o,l]=f(""),c=H();return d`<form class="inline" onSubmit=${a=>{a.preventDefault(),c.run(async()=>{await r(o),l("")})}}>
      <${P} id=${e} label=${t} value=${o} onInput=${l} required />
      ${s}
      <button type="submit" disabled=${c.busy}>${n}</button>
    </form>
    <${U} text=${c.error} id=${e+"-error"} />`}function Ce({label:e,remove:t}){let n=H();return d`<button type="button" class="danger" aria-label=${e} disabled=${n.busy}
    onClick=${()=>n.run(t)}>Remove</button>${n.error&&d`<span class="error" role="alert">${n.error}</span>`}`}function Ut({role:e,tick:t,changed:n}){let r=C(o=>v("role_permissions/"+$(e),{limit:E,after:o}),o=>o.name,[e,t]),s=o=>"permission/"+$(e)+"/"+$(o);return d`<section aria-labelledby="grants-h">
    <h2 id="grants-h">Permissions granted to ${e}</h2>
    <${Ee} id="grant-name" label="Permission" button="Grant" add=${async o=>{await T("POST",s(o)),n("Granted "+o+" to "+e+".")}} />
    <${R} p=${r} label="Granted permissions" id="grants-list" empty="No permissions granted directly." render=${o=>d`
      <li key=${o.name} class="row"><a href=${x("whocan",o.name)}>${o.name}</a>
        <${Ce} label=${"Remove permission "+o.name} remove=${async()=>{await T("DELETE",s(o.name)),n("Removed "+o.name+" from "+e+".")}} /></li>`} />
  </section>`}function Nt({role:e,tick:t,changed:n}){let r=C(o=>v("role/"+$(e)+"/inherits",{limit:E,after:o}),o=>o.role,[e,t]),s=o=>"role/"+$(e)+"/inherits/"+$(o);return d`<section aria-labelledby="parents-h">
    <h2 id="parents-h">${e} inherits from</h2>
    <${Ee} id="parent-name" label="Parent role" button="Inherit" add=${async o=>{await T("POST",s(o)),n(e+" now inherits from "+o+".")}} />
    <${R} p=${r} label="Parent roles" id="parents-list" empty="Inherits from no role." render=${o=>d`
      <li key=${o.role} class="row"><a href=${x("role",o.role)}>${o.role}</a>
        <${Ce} label=${"Stop inheriting from "+o.role} remove=${async()=>{await T("DELETE",s(o.role)),n(e+" no longer inherits from "+o.role+".")}} /></li>`} />
  </section>`}function Dt({role:e,tick:t}){let n=C(r=>v("role/"+$(e)+"/inherited_by",{limit:E,after:r}),r=>r.role,[e,t]);return d`<section aria-labelledby="children-h">
    <h2 id="children-h">Roles inheriting from ${e}</h2>
    <${R} p=${n} label="Roles inheriting from it" id="children-list" empty="None." render=${r=>d`
      <li key=${r.role} class="row"><a href=${x("role",r.role)}>${r.role}</a></li>`} />
  </section>`}async function It(e){let t=[{role:e,chain:[e]}],n=new Set([e]);for(let r=0;r<t.length&&t.length<200;r++){let s=await v("role/"+$(t[r].role)+"/inherits",{limit:1e3});for(let{role:o}of s)n.has(o)||(n.add(o),t.push({role:o,chain:[...t[r].chain,o]}))}return t}function Ht({role:e,tick:t}){let n=C(async r=>{let[s,o]=await Promise.all([v("role_permissions/"+$(e),{limit:E,after:r,effective:"true"}),It(e)]);return Promise.all(s.map(async({name:l})=>{for(let c of o)if((await v("permission/"+$(c.role)+"/"+$(l))).result)return{name:l,chain:c.chain};return{name:l,chain:[]}}))},r=>r.name,[e,t]);return d`<section aria-labelledby="eff-h">
    <h2 id="eff-h">Effective permissions of ${e}</h2>
    <${R} p=${n} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${r=>d`
      <li key=${r.name} class="row"><span class="name">${r.name}</span>
        <span class="src">${r.chain.length<=1?"granted directly":"inherited from "+r.chain[r.chain.length-1]+" ("+r.chain.join(" \u2192 ")+")"}</span></li>`} />
  </section>`}function Lt({role:e,tick:t,changed:n}){let[r,s]=f(""),[o,l]=f(""),c=C(a=>v("members/"+$(e),{limit:E,after:a,scope:o}),a=>a.user,[e,t,o]),u=a=>"membership/"+$(a)+"/"+$(e);return d`<section aria-labelledby="members-h">
    <h2 id="members-h">Members of ${e}</h2>
    <${Ee} id="member-user" label="User" button="Add member" add=${async a=>{await T("POST",u(a),{query:{scope:r}}),n(a+" is now a member of "+e+(r?" in scope "+r:"")+".")}} extra=${d`<${P} id="member-scope" label="Scope" value=${r} onInput=${s}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <form class="inline" onSubmit=${a=>{a.preventDefault(),l(r)}}>
      <p class="hint">Showing ${o?"members in scope \u201C"+o+"\u201D (global ones included)":"global members"}.</p>
      <button type="submit">Show members in this scope</button>
    </form>
    <${R} p=${c} label="Members" id="members-list" empty="No members." render=${a=>d`
      <li key=${a.user} class="row"><a href=${x("user",a.user)}>${a.user}</a>
        <${Ce} label=${"Remove member "+a.user} remove=${async()=>{await T("DELETE",u(a.user),{query:{scope:o}}),n(a.user+" is no longer a member of "+e+(o?" in scope "+o:"")+".")}} /></li>`} />
  </section>`}function _e({go:e,initial:t}){let[n,r]=f(t||"");return d`<form class="inline" onSubmit=${s=>{s.preventDefault(),n&&e(x("user",n))}}>
    <${P} id="lookup-user" label="User" value=${n} onInput=${r} required />
    <button type="submit">Show user</button>
  </form>`}async function pt(e,t,n){let r=await v("has_permission/"+$(e)+"/"+$(t),{scope:n,explain:"true"});return r.result?e+" can "+t+": yes, "+ct(r.grant)+".":e+" cannot "+t+(n?" in scope "+n:"")+"."}function dt({user:e,go:t}){let[n,r]=f(""),[s,o]=f(""),l=C(h=>v("user_roles/"+$(e),{limit:E,after:h,scope:s}),h=>h.role,[e,s]),c=C(h=>v("user_permissions/"+$(e),{limit:E,after:h,scope:s}),h=>h.name,[e,s]),[u,a]=f(""),[_,p]=f(""),[i,m]=f({}),b=H();return d`
    <${_e} go=${t} initial=${e} />
    <form class="inline" onSubmit=${h=>{h.preventDefault(),o(n)}}>
      <${P} id="user-scope" label="Scope" value=${n} onInput=${r} hint="Empty: global memberships only." />
      <button type="submit">Apply scope</button>
    </form>
    <section aria-labelledby="check-h">
      <h2 id="check-h">Can ${e} …?</h2>
      <form class="inline" onSubmit=${h=>{h.preventDefault(),b.run(async()=>p(await pt(e,u,s)))}}>
        <${P} id="check-perm" label="Permission" value=${u} onInput=${a} required />
        <button type="submit" disabled=${b.busy}>Check</button>
      </form>
      <${U} text=${b.error} />
      <p id="check-result" role="status" class=${_.includes(": yes")?"yes":"no"}>${_}</p>
    </section>
    <div class="cols">
      <section aria-labelledby="uroles-h">
        <h2 id="uroles-h">Roles${s?" in scope "+s:""}</h2>
        <${R} p=${l} label="Roles of the user" id="user-roles" empty="Member of no role." render=${h=>d`
          <li key=${h.role} class="row"><a href=${x("role",h.role)}>${h.role}</a></li>`} />
      </section>
      <section aria-labelledby="uperms-h">
        <h2 id="uperms-h">Effective permissions</h2>
        <${R} p=${c} label="Effective permissions of the user" id="user-perms" empty="No permissions." render=${h=>d`
          <li key=${h.name} class="row wrap"><span class="name">${h.name}</span>
            <button type="button" aria-label=${"Why can "+e+" "+h.name+"?"}
              onClick=${async()=>{let w;try{w=await pt(e,h.name,s)}catch(y){w=y.message}m({...i,[h.name]:w})}}>Why?</button>
            ${i[h.name]&&d`<span class="why" role="status">${i[h.name]}</span>`}</li>`} />
      </section>
    </div>`}function mt({go:e,notify:t}){let n=C(p=>v("scoped_memberships",{limit:E,after:p}),p=>p.scope+"/"+p.user+"/"+p.role,[]),[r,s]=f(""),[o,l]=f(""),[c,u]=f(""),a=H();return d`
    <section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${p=>{p.preventDefault(),a.run(async()=>{await T("POST","membership/"+$(r)+"/"+$(o),{query:{scope:c}}),t(r+" is now a member of "+o+(c?" in scope "+c:" globally")+"."),n.reload()})}}>
        <${P} id="m-user" label="User" value=${r} onInput=${s} required />
        <${P} id="m-role" label="Role" value=${o} onInput=${l} required />
        <${P} id="m-scope" label="Scope" value=${c} onInput=${u} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${a.busy}>Add membership</button>
      </form>
      <${U} text=${a.error} />
    </section>
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${_e} go=${e} />
      <p class="hint">Global members are listed on each role's page.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h">Memberships in one scope</h2>
      <${R} p=${n} label="Scoped memberships" id="scoped-list" empty="No scoped memberships." render=${p=>d`
        <li key=${p.scope+"/"+p.user+"/"+p.role} class="row"><span class="scope">${p.scope}</span>
          <a href=${x("user",p.user)}>${p.user}</a> <a href=${x("role",p.role)}>${p.role}</a></li>`} />
    </section>`}function ht({name:e,go:t}){let[n,r]=f(e||""),[s,o]=f(""),[l,c]=f(""),u=C(_=>e?v("which_users_can/"+$(e),{limit:E,after:_,scope:l}):Promise.resolve([]),_=>_.user,[e,l]),a=C(_=>e?v("which_roles_can/"+$(e),{limit:E,after:_}):Promise.resolve([]),_=>_.role,[e]);return d`
    <form class="inline" onSubmit=${_=>{_.preventDefault(),c(s),n&&t(x("whocan",n))}}>
      <${P} id="whocan-perm" label="Permission" value=${n} onInput=${r} required />
      <${P} id="whocan-scope" label="Scope" value=${s} onInput=${o} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${e&&d`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${e}${l?" in scope "+l:""}</h2>
        <${R} p=${u} label="Users" id="whocan-users" empty="Nobody." render=${_=>d`
          <li key=${_.user} class="row"><a href=${x("user",_.user)}>${_.user}</a></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${e}</h2>
        <${R} p=${a} label="Roles" id="whocan-roles" empty="No role." render=${_=>d`
          <li key=${_.role} class="row"><a href=${x("role",_.role)}>${_.role}</a></li>`} />
      </section>
    </div>`}`}var Mt=["add_role","del_role","add_permission","del_permission","add_membership","del_membership","add_inheritance","del_inheritance","batch","refused"];function ft(){let[e,t]=f(""),[n,r]=f(""),s=C(o=>v("audit",{limit:E,before:o,action:n}),o=>o.id,[n]);return d`
    <form class="inline" onSubmit=${o=>{o.preventDefault(),r(e.trim())}}>
      <${P} id="audit-action" label="Action" value=${e} onInput=${t} list="audit-actions"
        hint="Empty: every action." />
      <datalist id="audit-actions">${Mt.map(o=>d`<option value=${o} />`)}</datalist>
      <button type="submit">Filter</button>
    </form>
    <${U} text=${s.error} />
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${s.loading}>
        <caption>Audit records, newest first${n?", action "+n:""}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Request</th></tr></thead>
        <tbody>${s.items.map(o=>d`<tr key=${o.id}>
          <td data-label="When"><time datetime=${o.at}>${o.at.replace("T"," ").replace(/\.\d+Z$/,"")}</time></td>
          <td data-label="Action">${o.action}</td><td data-label="Resource">${o.resource}</td>
          <td data-label="Outcome">${o.outcome}</td><td data-label="Request" class="mono">${o.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${!s.loading&&!s.error&&s.items.length===0&&d`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${s.prev} disabled=${!s.hasPrev}>Newer</button>
      <span>Page ${s.page}</span>
      <button type="button" onClick=${s.next} disabled=${!s.hasNext}>Older</button>
    </nav>`}function bt(){let e=location.hash.replace(/^#\/?/,"").split("/").map(t=>{try{return decodeURIComponent(t)}catch{return""}});return{page:e[0]||"roles",arg:e[1]||""}}var Wt=[["roles","Roles"],["members","Members"],["user","Users"],["whocan","Who can"],["audit","Audit log"]];function Ft({onIn:e,reason:t}){let[n,r]=f(""),[s,o]=f(t),[l,c]=f(!1);return d`<main class="signin" id="main">
    <h1>rolegate console</h1>
    <form onSubmit=${async a=>{a.preventDefault(),c(!0),o("");try{await T("GET","roles",{query:{limit:1},key:n.trim()}),Ge(n.trim()),e()}catch(_){o(_.message)}finally{c(!1)}}}>
      <${P} id="client-key" type="password" label="Client key" value=${n} onInput=${r} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). It stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${l}>Sign in</button>
    </form>
    <${U} text=${s} id="signin-error" />
  </main>`}function qt(){let[e,t]=f(!!ve()),[n,r]=f(""),[s,o]=f(bt()),[l,c]=f(""),u=J();if(M(()=>{let m=()=>{o(bt()),c("")};return addEventListener("hashchange",m),Ke(b=>{we(),r(b),t(!1)}),()=>removeEventListener("hashchange",m)},[]),M(()=>{u.current&&u.current.focus()},[s.page,s.arg,e]),!e)return d`<${Ft} reason=${n} onIn=${()=>{r(""),t(!0)}} />`;let a=m=>{location.hash=m},_=c,p,i;switch(s.page){case"role":p="Role "+s.arg,i=d`<${ut} role=${s.arg} notify=${_} />`;break;case"members":p="Members",i=d`<${mt} go=${a} notify=${_} />`;break;case"user":p=s.arg?"User "+s.arg:"Users",i=s.arg?d`<${dt} user=${s.arg} go=${a} />`:d`<${_e} go=${a} />`;break;case"whocan":p=s.arg?"Who can "+s.arg:"Who can",i=d`<${ht} name=${s.arg} go=${a} />`;break;case"audit":p="Audit log",i=d`<${ft} />`;break;default:p="Roles",i=d`<${_t} notify=${_} />`}return document.title=p+" \xB7 rolegate console",d`
    <a class="skip" href="#main" onClick=${m=>{m.preventDefault(),u.current&&u.current.focus()}}>Skip to content</a>
    <header>
      <span class="brand">rolegate</span>
      <nav aria-label="Console">
        <ul>${Wt.map(([m,b])=>d`<li><a href=${"#/"+m} aria-current=${s.page===m?"page":void 0}>${b}</a></li>`)}</ul>
      </nav>
      <button type="button" class="signout" onClick=${()=>{we(),t(!1)}}>Sign out</button>
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${u}>${p}</h1>
      <p id="status" role="status" aria-live="polite">${l}</p>
      ${i}
    </main>`}ye(d`<${qt} />`,document.getElementById("app"));
